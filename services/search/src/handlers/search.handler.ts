import { randomUUID } from 'node:crypto';
import { SearchMessages as M } from '@palaver/contracts';
import { AuditOutbox, answerHealth, messageHandlers } from '@palaver/platform';
import { KnowledgeVectors } from '../repositories/knowledge-vectors';
import { DocumentService } from '../services/document.service';
import { QnaService } from '../services/qna.service';
import { SearchService } from '../services/search.service';
import { documentEntry } from './knowledge-audit';

export const SearchHandler = messageHandlers(
  'SearchHandler',
  { search: SearchService, qnas: QnaService, documents: DocumentService, vectors: KnowledgeVectors, audit: AuditOutbox },
  (on) => [
    on(M.search, ({ search }, req) => search.search(req.projectId, req.q, req.size)),
    on(M.retrieve, ({ search }, req) => search.retrieve(req.projectId, req.query, req.qnaLimit, req.chunkLimit)),
    on(M.listQnas, ({ qnas }, req) => qnas.list(req.projectId, req.query)),
    on(M.getQna, ({ qnas }, req) => qnas.get(req.projectId, req.qnaId)),
    on(M.createQna, ({ qnas }, req) => qnas.create(req.projectId, req.body, req.actor)),
    on(M.updateQna, ({ qnas }, req) => qnas.update(req.projectId, req.qnaId, req.patch, req.actor)),
    on(M.deleteQna, ({ qnas }, req) => qnas.delete(req.projectId, req.qnaId, req.actor)),
    on(M.createDocument, ({ audit, documents }, req) => {
      const documentId = randomUUID();
      return audit.around(documentEntry(req, 'document.created', documentId), () => documents.create(req.projectId, req.body, documentId));
    }),
    on(M.updateDocument, ({ audit, documents }, req) =>
      // Which fields changed, never their text.
      audit.around(documentEntry(req, 'document.updated', req.documentId, { fields: Object.keys(req.patch) }), () =>
        documents.update(req.projectId, req.documentId, req.patch),
      ),
    ),
    on(M.deleteDocument, ({ audit, documents }, req) =>
      audit.around(documentEntry(req, 'document.deleted', req.documentId), () => documents.delete(req.projectId, req.documentId)),
    ),
    on(M.getDocument, ({ documents }, req) => documents.get(req.projectId, req.documentId)),
    on(M.listDocuments, ({ documents }, req) => documents.list(req.projectId, req.limit, req.offset)),
    on(M.embed, async ({ vectors }, req) => ({ vectors: await vectors.embedQueries(req.texts) })),
    on(M.health, answerHealth),
  ],
);
