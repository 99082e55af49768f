export { AdminApiError, AdminClient, type AdminClientOptions } from './admin-client';
export {
  type ImportItem,
  type ImportSources,
  parseNdjson,
  readFolder,
  readNdjson,
  readSources,
  type SourceProblem,
} from './import-sources';
export {
  type ImportCallbacks,
  type ImportOptions,
  type ImportOutcome,
  type ImportReport,
  importItems,
  type KnowledgeWriter,
} from './importer';
