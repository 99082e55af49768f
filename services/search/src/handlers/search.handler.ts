import { randomUUID } from 'node:crypto';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SearchMessages as M } from '@palaver/contracts';
import { AuditOutbox, assertDependenciesUp, handle } from '@palaver/platform';
import { KnowledgeVectors } from '../repositories/knowledge-vectors';
import { DocumentService } from '../services/document.service';
import { QnaService } from '../services/qna.service';
import { SearchService } from '../services/search.service';
import { documentEntry } from './knowledge-audit';

@Controller()
export class SearchHandler {
  constructor(
    @Inject(SearchService) private readonly search: SearchService,
    @Inject(QnaService) private readonly qnas: QnaService,
    @Inject(DocumentService) private readonly documents: DocumentService,
    @Inject(KnowledgeVectors) private readonly vectors: KnowledgeVectors,
    @Inject(AuditOutbox) private readonly audit: AuditOutbox,
  ) {}

  @MessagePattern(M.search.subject)
  searchKnowledge(@Payload() raw: unknown) {
    return handle(M.search, raw, (req) => this.search.search(req.projectId, req.q, req.size));
  }

  @MessagePattern(M.retrieve.subject)
  retrieve(@Payload() raw: unknown) {
    return handle(M.retrieve, raw, (req) => this.search.retrieve(req.projectId, req.query, req.qnaLimit, req.chunkLimit));
  }

  @MessagePattern(M.listQnas.subject)
  listQnas(@Payload() raw: unknown) {
    return handle(M.listQnas, raw, (req) => this.qnas.list(req.projectId, req.query));
  }

  @MessagePattern(M.getQna.subject)
  getQna(@Payload() raw: unknown) {
    return handle(M.getQna, raw, (req) => this.qnas.get(req.projectId, req.qnaId));
  }

  @MessagePattern(M.createQna.subject)
  createQna(@Payload() raw: unknown) {
    return handle(M.createQna, raw, (req) => this.qnas.create(req.projectId, req.body, req.actor));
  }

  @MessagePattern(M.updateQna.subject)
  updateQna(@Payload() raw: unknown) {
    return handle(M.updateQna, raw, (req) => this.qnas.update(req.projectId, req.qnaId, req.patch, req.actor));
  }

  @MessagePattern(M.deleteQna.subject)
  deleteQna(@Payload() raw: unknown) {
    return handle(M.deleteQna, raw, (req) => this.qnas.delete(req.projectId, req.qnaId, req.actor));
  }

  @MessagePattern(M.createDocument.subject)
  createDocument(@Payload() raw: unknown) {
    return handle(M.createDocument, raw, (req) => {
      const documentId = randomUUID();
      return this.audit.around(documentEntry(req, 'document.created', documentId), () =>
        this.documents.create(req.projectId, req.body, documentId),
      );
    });
  }

  @MessagePattern(M.updateDocument.subject)
  updateDocument(@Payload() raw: unknown) {
    return handle(M.updateDocument, raw, (req) =>
      // Which fields changed, never their text.
      this.audit.around(documentEntry(req, 'document.updated', req.documentId, { fields: Object.keys(req.patch) }), () =>
        this.documents.update(req.projectId, req.documentId, req.patch),
      ),
    );
  }

  @MessagePattern(M.deleteDocument.subject)
  deleteDocument(@Payload() raw: unknown) {
    return handle(M.deleteDocument, raw, (req) =>
      this.audit.around(documentEntry(req, 'document.deleted', req.documentId), () => this.documents.delete(req.projectId, req.documentId)),
    );
  }

  @MessagePattern(M.getDocument.subject)
  getDocument(@Payload() raw: unknown) {
    return handle(M.getDocument, raw, (req) => this.documents.get(req.projectId, req.documentId));
  }

  @MessagePattern(M.listDocuments.subject)
  listDocuments(@Payload() raw: unknown) {
    return handle(M.listDocuments, raw, (req) => this.documents.list(req.projectId, req.limit, req.offset));
  }

  @MessagePattern(M.embed.subject)
  embed(@Payload() raw: unknown) {
    return handle(M.embed, raw, async (req) => ({ vectors: await this.vectors.embedQueries(req.texts) }));
  }

  @MessagePattern(M.health.subject)
  health(@Payload() raw: unknown) {
    return handle(M.health, raw, async () => {
      assertDependenciesUp();
      return { ok: true as const };
    });
  }
}
