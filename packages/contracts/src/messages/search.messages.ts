import { z } from 'zod';
import { Actor } from '../accounts/audit';
import { DocumentBody, DocumentRecord, QnaBody, UpdateDocumentBody, UpdateQnaBody } from '../admin/knowledge.admin';
import { Source, SourceBody, SourcePage, SourcePageStatus, UpdateSourceBody, UploadDocumentBody } from '../admin/source.admin';
import { QueryOffset, queryInt, Uuid } from '../common';
import { pagedList } from '../v2/list';
import { ListQnasQuery, Qna } from '../v2/qna';
import { SearchResult } from '../v2/search';
import { ActorField } from './accounts.messages';
import { Ack, defineMessage } from './define';

export const RetrievedQna = z.object({ id: Uuid, question: z.string(), answer: z.string(), score: z.number() });
export type RetrievedQna = z.infer<typeof RetrievedQna>;
export const RetrievedChunk = z.object({
  documentId: Uuid,
  title: z.string(),
  url: z.string(),
  content: z.string(),
  score: z.number(),
  /** Set when the document is a product page. */
  productId: z.string().optional(),
  /** The section headings the chunk is under, when there are any. */
  headings: z.array(z.string()).optional(),
});
export type RetrievedChunk = z.infer<typeof RetrievedChunk>;
export const Retrieval = z.object({ qnas: z.array(RetrievedQna), chunks: z.array(RetrievedChunk) });
export type Retrieval = z.infer<typeof Retrieval>;

const ProjectScope = z.object({ projectId: Uuid });
/** Texts one embed request carries at most. */
export const EMBED_TEXTS_MAX = 64;

export const SearchMessages = {
  search: defineMessage(
    'search.qry.search.v1',
    ProjectScope.extend({ q: z.string().min(1).max(500), size: z.number().int().min(1).max(50) }),
    z.object({ results: z.array(SearchResult) }),
  ),
  /** Context for a reply: best Q&A entries and document chunks for the query. */
  retrieve: defineMessage(
    'search.qry.retrieve.v1',
    ProjectScope.extend({
      query: z.string().min(1),
      qnaLimit: z.number().int().min(0).max(20),
      chunkLimit: z.number().int().min(0).max(20),
    }),
    Retrieval,
  ),
  listQnas: defineMessage('search.qry.list-qnas.v1', ProjectScope.extend({ query: ListQnasQuery }), pagedList(Qna)),
  getQna: defineMessage('search.qry.get-qna.v1', ProjectScope.extend({ qnaId: Uuid }), Qna),
  createQna: defineMessage('search.cmd.create-qna.v1', ProjectScope.extend({ actor: Actor, body: QnaBody }), Qna),
  updateQna: defineMessage('search.cmd.update-qna.v1', ProjectScope.extend({ actor: Actor, qnaId: Uuid, patch: UpdateQnaBody }), Qna),
  deleteQna: defineMessage('search.cmd.delete-qna.v1', ProjectScope.extend({ actor: Actor, qnaId: Uuid }), Ack),
  createDocument: defineMessage(
    'search.cmd.create-document.v1',
    ProjectScope.extend({ actor: ActorField, body: DocumentBody }),
    DocumentRecord,
  ),
  updateDocument: defineMessage(
    'search.cmd.update-document.v1',
    ProjectScope.extend({ actor: ActorField, documentId: Uuid, patch: UpdateDocumentBody }),
    DocumentRecord,
  ),
  deleteDocument: defineMessage('search.cmd.delete-document.v1', ProjectScope.extend({ actor: ActorField, documentId: Uuid }), Ack),
  getDocument: defineMessage('search.qry.get-document.v1', ProjectScope.extend({ documentId: Uuid }), DocumentRecord),
  listDocuments: defineMessage(
    'search.qry.list-documents.v1',
    ProjectScope.extend({ limit: queryInt(1, 100).default(20), offset: QueryOffset }),
    pagedList(DocumentRecord),
  ),
  createSource: defineMessage('search.cmd.create-source.v1', ProjectScope.extend({ actor: ActorField, body: SourceBody }), Source),
  listSources: defineMessage(
    'search.qry.list-sources.v1',
    ProjectScope.extend({ limit: queryInt(1, 100).default(20), offset: QueryOffset }),
    pagedList(Source),
  ),
  getSource: defineMessage('search.qry.get-source.v1', ProjectScope.extend({ sourceId: Uuid }), Source),
  updateSource: defineMessage(
    'search.cmd.update-source.v1',
    ProjectScope.extend({ actor: ActorField, sourceId: Uuid, patch: UpdateSourceBody }),
    Source,
  ),
  /** Removes the source and every document it made. */
  deleteSource: defineMessage('search.cmd.delete-source.v1', ProjectScope.extend({ actor: ActorField, sourceId: Uuid }), Ack),
  /** Crawls again now (a crawl already queued or running is not doubled). */
  syncSource: defineMessage('search.cmd.sync-source.v1', ProjectScope.extend({ actor: ActorField, sourceId: Uuid }), Source),
  listSourcePages: defineMessage(
    'search.qry.list-source-pages.v1',
    ProjectScope.extend({
      sourceId: Uuid,
      status: SourcePageStatus.optional(),
      limit: queryInt(1, 100).default(20),
      offset: QueryOffset,
    }),
    pagedList(SourcePage),
  ),
  /** A PDF or DOCX file made a document: its text extracted, then as createDocument. */
  uploadDocument: defineMessage(
    'search.cmd.upload-document.v1',
    ProjectScope.extend({ actor: ActorField, body: UploadDocumentBody }),
    DocumentRecord,
  ),
  /** Query embeddings of short texts with the project's embedder (analytics groups questions with them). */
  embed: defineMessage(
    'search.qry.embed.v1',
    z.object({ texts: z.array(z.string().min(1).max(2000)).min(1).max(EMBED_TEXTS_MAX) }),
    z.object({ vectors: z.array(z.array(z.number())) }),
  ),
  health: defineMessage('search.qry.health.v1', z.object({}), Ack),
} as const;
