import { randomUUID } from 'node:crypto';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SearchMessages as M } from '@palaver/contracts';
import { AuditOutbox, handle } from '@palaver/platform';
import { SourceService } from '../services/source.service';
import { UploadService } from '../services/upload.service';
import { documentEntry, sourceEntry } from './knowledge-audit';

@Controller()
export class SourceHandler {
  constructor(
    @Inject(SourceService) private readonly sources: SourceService,
    @Inject(UploadService) private readonly uploads: UploadService,
    @Inject(AuditOutbox) private readonly audit: AuditOutbox,
  ) {}

  @MessagePattern(M.uploadDocument.subject)
  upload(@Payload() raw: unknown) {
    return handle(M.uploadDocument, raw, (req) => {
      const documentId = randomUUID();
      return this.audit.around(documentEntry(req, 'document.created', documentId, { via: 'upload' }), () =>
        this.uploads.upload(req.projectId, req.body, documentId),
      );
    });
  }

  @MessagePattern(M.createSource.subject)
  create(@Payload() raw: unknown) {
    return handle(M.createSource, raw, (req) => {
      const sourceId = randomUUID();
      return this.audit.around(sourceEntry(req, 'source.created', sourceId, { host: new URL(req.body.url).host }), () =>
        this.sources.create(req.projectId, req.body, sourceId),
      );
    });
  }

  @MessagePattern(M.listSources.subject)
  list(@Payload() raw: unknown) {
    return handle(M.listSources, raw, (req) => this.sources.list(req.projectId, req.limit, req.offset));
  }

  @MessagePattern(M.getSource.subject)
  get(@Payload() raw: unknown) {
    return handle(M.getSource, raw, (req) => this.sources.get(req.projectId, req.sourceId));
  }

  @MessagePattern(M.updateSource.subject)
  update(@Payload() raw: unknown) {
    return handle(M.updateSource, raw, (req) =>
      this.audit.around(sourceEntry(req, 'source.updated', req.sourceId, { fields: Object.keys(req.patch) }), () =>
        this.sources.update(req.projectId, req.sourceId, req.patch),
      ),
    );
  }

  @MessagePattern(M.deleteSource.subject)
  delete(@Payload() raw: unknown) {
    return handle(M.deleteSource, raw, (req) =>
      this.audit.around(sourceEntry(req, 'source.deleted', req.sourceId), () => this.sources.delete(req.projectId, req.sourceId)),
    );
  }

  @MessagePattern(M.syncSource.subject)
  sync(@Payload() raw: unknown) {
    return handle(M.syncSource, raw, (req) =>
      this.audit.around(sourceEntry(req, 'source.crawl-started', req.sourceId), () => this.sources.sync(req.projectId, req.sourceId)),
    );
  }

  @MessagePattern(M.listSourcePages.subject)
  listPages(@Payload() raw: unknown) {
    return handle(M.listSourcePages, raw, (req) => this.sources.listPages(req.projectId, req.sourceId, req.status, req.limit, req.offset));
  }
}
