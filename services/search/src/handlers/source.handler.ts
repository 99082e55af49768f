import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SearchMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { SourceService } from '../services/source.service';
import { UploadService } from '../services/upload.service';

@Controller()
export class SourceHandler {
  constructor(
    @Inject(SourceService) private readonly sources: SourceService,
    @Inject(UploadService) private readonly uploads: UploadService,
  ) {}

  @MessagePattern(M.uploadDocument.subject)
  upload(@Payload() raw: unknown) {
    return handle(M.uploadDocument, raw, (req) => this.uploads.upload(req.projectId, req.body));
  }

  @MessagePattern(M.createSource.subject)
  create(@Payload() raw: unknown) {
    return handle(M.createSource, raw, (req) => this.sources.create(req.projectId, req.body));
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
    return handle(M.updateSource, raw, (req) => this.sources.update(req.projectId, req.sourceId, req.patch));
  }

  @MessagePattern(M.deleteSource.subject)
  delete(@Payload() raw: unknown) {
    return handle(M.deleteSource, raw, (req) => this.sources.delete(req.projectId, req.sourceId));
  }

  @MessagePattern(M.syncSource.subject)
  sync(@Payload() raw: unknown) {
    return handle(M.syncSource, raw, (req) => this.sources.sync(req.projectId, req.sourceId));
  }

  @MessagePattern(M.listSourcePages.subject)
  listPages(@Payload() raw: unknown) {
    return handle(M.listSourcePages, raw, (req) => this.sources.listPages(req.projectId, req.sourceId, req.status, req.limit, req.offset));
  }
}
