export { AdminApiError, AdminClient, type AdminClientOptions } from './admin-client';
export { type ImportItem, type ImportSources, type SourceProblem, parseNdjson, readFolder, readNdjson, readSources } from './import-sources';
export { type ImportCallbacks, type ImportOptions, type ImportOutcome, type ImportReport, type KnowledgeWriter, importItems } from './importer';
