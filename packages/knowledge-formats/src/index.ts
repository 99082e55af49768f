export {
  documentUrl,
  FOLDER_EXTENSIONS,
  fileDocument,
  fileItem,
  type ImportItem,
  type ImportSources,
  isKnowledgeFile,
  parseNdjson,
  type SourceProblem,
  toPosix,
} from './knowledge-items';
