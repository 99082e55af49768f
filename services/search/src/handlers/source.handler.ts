import { randomUUID } from 'node:crypto';
import { SearchMessages as M } from '@palaver/contracts';
import { AuditOutbox, messageHandlers } from '@palaver/platform';
import { SourceService } from '../services/source.service';
import { UploadService } from '../services/upload.service';
import { documentEntry, sourceEntry } from './knowledge-audit';

export const SourceHandler = messageHandlers(
  'SourceHandler',
  { sources: SourceService, uploads: UploadService, audit: AuditOutbox },
  (on) => [
    on(M.uploadDocument, ({ audit, uploads }, req) => {
      const documentId = randomUUID();
      return audit.around(documentEntry(req, 'document.created', documentId, { via: 'upload' }), () =>
        uploads.upload(req.projectId, req.body, documentId),
      );
    }),
    on(M.createSource, ({ audit, sources }, req) => {
      const sourceId = randomUUID();
      return audit.around(sourceEntry(req, 'source.created', sourceId, { host: new URL(req.body.url).host }), () =>
        sources.create(req.projectId, req.body, sourceId),
      );
    }),
    on(M.listSources, ({ sources }, req) => sources.list(req.projectId, req.limit, req.offset)),
    on(M.getSource, ({ sources }, req) => sources.get(req.projectId, req.sourceId)),
    on(M.updateSource, ({ audit, sources }, req) =>
      audit.around(sourceEntry(req, 'source.updated', req.sourceId, { fields: Object.keys(req.patch) }), () =>
        sources.update(req.projectId, req.sourceId, req.patch),
      ),
    ),
    on(M.deleteSource, ({ audit, sources }, req) =>
      audit.around(sourceEntry(req, 'source.deleted', req.sourceId), () => sources.delete(req.projectId, req.sourceId)),
    ),
    on(M.syncSource, ({ audit, sources }, req) =>
      audit.around(sourceEntry(req, 'source.crawl-started', req.sourceId), () => sources.sync(req.projectId, req.sourceId)),
    ),
    on(M.listSourcePages, ({ sources }, req) => sources.listPages(req.projectId, req.sourceId, req.status, req.limit, req.offset)),
  ],
);
