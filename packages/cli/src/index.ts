export { type ImportItem, type ImportSources, parseNdjson, type SourceProblem } from '@palaver/knowledge-formats';
export { AdminApiError, AdminClient, type AdminClientOptions } from './admin-client';
export { readFolder, readNdjson, readSources } from './import-sources';
export {
  type ImportCallbacks,
  type ImportOptions,
  type ImportOutcome,
  type ImportReport,
  importItems,
  type KnowledgeWriter,
} from './importer';
