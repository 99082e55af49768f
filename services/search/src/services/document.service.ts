import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type DocumentBody, type DocumentRecord, type UpdateDocumentBody } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { type ChunkPayload, productFieldsOf } from '../domain/knowledge-payload';
import { defaultPath, documentChunks } from '../domain/knowledge-text';
import { pointId } from '../domain/point-id';
import { type DocumentChange, DocumentRepository } from '../repositories/document.repository';
import { KnowledgeVectors } from '../repositories/knowledge-vectors';
import { LexicalIndex } from '../repositories/lexical-index';
import { TermStatsService } from './term-stats.service';

/**
 * The knowledge base's documents. A document's chunks are embedded and indexed before the call
 * returns, so it is searchable at once. A new document's record is written first, under a
 * version no chunk has, so an upload killed while indexing leaves a listed document (no chunks
 * live) that can be deleted with whatever chunks it wrote; search only returns chunks of a
 * record's live version. Each write indexes a new version of the chunks under
 * fresh point ids, then switches the record to it and drops the old version: a search never
 * finds the document without chunks, and two concurrent updates cannot mix their chunks (the
 * later one fails with CONFLICT and leaves nothing behind). Each change that takes effect is
 * then counted in the project's term statistics and applied to its lexical index.
 */
@Injectable()
export class DocumentService {
  constructor(
    @Inject(DocumentRepository) private readonly documents: DocumentRepository,
    @Inject(KnowledgeVectors) private readonly vectors: KnowledgeVectors,
    @Inject(TermStatsService) private readonly termStats: TermStatsService,
    @Inject(LexicalIndex) private readonly lexical: LexicalIndex,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  /** `documentId`: the id to give it (a crawler records it first, so a crawl resumed after a crash finds it). */
  async create(projectId: string, body: DocumentBody, documentId: string = randomUUID()): Promise<DocumentRecord> {
    const now = this.clock.now().toISOString();
    const version = randomUUID();
    const draft: DocumentRecord = {
      id: documentId,
      projectId,
      title: body.title,
      url: body.url,
      path: body.path ? body.path : defaultPath(body.url),
      content: body.content,
      ...productFieldsOf(body),
      chunkCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    const pending = randomUUID();
    await this.documents.insert(draft, pending);
    let record: DocumentRecord;
    try {
      record = { ...draft, chunkCount: await this.index(draft, version) };
      if (!(await this.documents.replace(record, pending, version))) {
        throw new AppError('CONFLICT', 'the document was changed or deleted while it was being indexed', {
          resource: 'document',
          conflictingField: 'content',
        });
      }
    } catch (err) {
      await this.vectors.deleteDocumentChunks(projectId, draft.id, version);
      await this.documents.deleteAt(projectId, draft.id, pending);
      throw err;
    }
    await Promise.all(this.followChange({ projectId, documentId: record.id, before: null, after: { record, version } }));
    return record;
  }

  async update(projectId: string, documentId: string, patch: UpdateDocumentBody): Promise<DocumentRecord> {
    const current = await this.documents.find(projectId, documentId);
    if (!current) throw notFound(documentId);
    const existing = current.record;
    const url = patch.url ?? existing.url;
    // A path that was the URL's pathname follows a new URL; one set explicitly stays.
    const pathFollowsUrl = patch.url !== undefined && existing.path === defaultPath(existing.url);
    const path = patch.path ? patch.path : patch.path === '' || pathFollowsUrl ? defaultPath(url) : existing.path;
    const version = randomUUID();
    const draft: DocumentRecord = {
      id: existing.id,
      projectId,
      title: patch.title ?? existing.title,
      url,
      path,
      content: patch.content ?? existing.content,
      ...productFieldsOf(existing),
      ...productFieldsOf(patch),
      chunkCount: 0,
      createdAt: existing.createdAt,
      updatedAt: this.clock.now().toISOString(),
    };
    const record = { ...draft, chunkCount: await this.index(draft, version) };
    const replaced = await this.documents.replace(record, current.version, version).catch(async (err: unknown) => {
      await this.vectors.deleteDocumentChunks(projectId, documentId, version);
      throw err;
    });
    if (!replaced) {
      await this.vectors.deleteDocumentChunks(projectId, documentId, version);
      const stillThere = await this.documents.find(projectId, documentId);
      if (!stillThere) throw notFound(documentId);
      throw new AppError('CONFLICT', 'the document was changed by another request meanwhile; retry', {
        resource: 'document',
        conflictingField: 'content',
      });
    }
    await Promise.all([
      ...this.followChange({ projectId, documentId, before: current, after: { record, version } }),
      this.vectors.deleteDocumentChunks(projectId, documentId, current.version),
    ]);
    return record;
  }

  async delete(projectId: string, documentId: string): Promise<{ ok: true }> {
    const deleted = await this.documents.delete(projectId, documentId);
    if (!deleted) throw notFound(documentId);
    await Promise.all([
      ...this.followChange({ projectId, documentId, before: deleted, after: null }),
      this.vectors.deleteDocumentChunks(projectId, documentId),
    ]);
    return { ok: true };
  }

  async get(projectId: string, documentId: string): Promise<DocumentRecord> {
    const found = await this.documents.find(projectId, documentId);
    if (!found) throw notFound(documentId);
    return found.record;
  }

  async list(projectId: string, limit: number, offset: number) {
    const { total, data } = await this.documents.list(projectId, limit, offset);
    return { object: 'list' as const, total, limit, offset, data };
  }

  /** Counts a change that took effect in the project's term statistics and applies it to its lexical index. */
  private followChange(change: DocumentChange): Promise<void>[] {
    return [this.termStats.documentChanged(change), this.lexical.documentChanged(change)];
  }

  /** Chunks, embeds and indexes the document under `version`; returns the number of chunks. */
  private async index(doc: DocumentRecord, version: string): Promise<number> {
    const chunks = documentChunks(doc.title, doc.content);
    if (chunks.length === 0) return 0;
    const vectors = await this.vectors.embedDocuments(chunks.map((c) => c.text));
    const product = productFieldsOf(doc);
    await this.vectors.upsertChunks(
      chunks.map(({ chunk }, i) => {
        const payload: ChunkPayload = {
          projectId: doc.projectId,
          documentId: doc.id,
          version,
          kind: 'chunk',
          chunkIndex: chunk.index,
          headings: chunk.headings,
          title: doc.title,
          url: doc.url,
          path: doc.path,
          content: chunk.text,
          ...product,
        };
        return { id: pointId(doc.id, version, chunk.index), vector: vectors[i]!, payload };
      }),
    );
    return chunks.length;
  }
}

const notFound = (documentId: string): AppError => new AppError('DOCUMENT_NOT_FOUND', 'no such document in this project', { documentId });
