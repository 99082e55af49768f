import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  type ListQnasQuery,
  type NewAuditEntry,
  type Qna,
  type QnaBody,
  type UpdateQnaBody,
} from '@palaver/contracts';
import { AuditOutbox, type Clock, Ports } from '@palaver/platform';
import { QNA_FIELDS } from '../domain/knowledge-payload';
import { qnaEmbeddingText } from '../domain/knowledge-text';
import { pointId } from '../domain/point-id';
import { qnaQuestionFilter } from '../domain/qna-filter';
import { KnowledgeVectors } from '../repositories/knowledge-vectors';
import { QnaRepository } from '../repositories/qna.repository';

/**
 * The project's Q&A entries. Each is also embedded into the vector index twice, its question
 * and its question with answer (see `QnaPayload`), so that a reply finds it by paraphrase;
 * the list's `query` is a plain
 * word-prefix match on the question (see `qnaQuestionFilter`), most recently updated first.
 */
@Injectable()
export class QnaService {
  constructor(
    @Inject(QnaRepository) private readonly qnas: QnaRepository,
    @Inject(KnowledgeVectors) private readonly vectors: KnowledgeVectors,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(AuditOutbox) private readonly audit: AuditOutbox,
  ) {}

  async create(projectId: string, body: QnaBody, actor: Actor): Promise<Qna> {
    const now = this.clock.now().toISOString();
    const qna: Qna = {
      object: 'qna',
      id: randomUUID(),
      createdAt: now,
      updatedAt: now,
      question: body.question,
      answer: body.answer,
      ...(body.createdBy ? { createdBy: body.createdBy } : {}),
    };
    const vectors = await this.embed(qna);
    await this.audit.around(entry(projectId, actor, 'qna.created', qna.id), async () => {
      await this.qnas.insert(projectId, qna);
      await this.indexOrUndo(projectId, qna, vectors, () => this.qnas.delete(projectId, qna.id));
    });
    return qna;
  }

  async update(projectId: string, qnaId: string, patch: UpdateQnaBody, actor: Actor): Promise<Qna> {
    const existing = await this.qnas.find(projectId, qnaId);
    if (!existing) throw notFound(qnaId);
    const createdBy = patch.createdBy ?? existing.createdBy;
    const qna: Qna = {
      object: 'qna',
      id: existing.id,
      createdAt: existing.createdAt,
      updatedAt: this.clock.now().toISOString(),
      question: patch.question ?? existing.question,
      answer: patch.answer ?? existing.answer,
      ...(createdBy ? { createdBy } : {}),
    };
    const vectors = await this.embed(qna);
    // Which fields changed, never their text.
    await this.audit.around(entry(projectId, actor, 'qna.updated', qna.id, { fields: Object.keys(patch) }), async () => {
      if (!(await this.qnas.replace(projectId, qna))) throw notFound(qnaId);
      await this.indexOrUndo(projectId, qna, vectors, () => this.qnas.replace(projectId, existing));
    });
    return qna;
  }

  async delete(projectId: string, qnaId: string, actor: Actor): Promise<{ ok: true }> {
    await this.audit.around(entry(projectId, actor, 'qna.deleted', qnaId), async () => {
      if (!(await this.qnas.delete(projectId, qnaId))) throw notFound(qnaId);
      await this.vectors.deleteQna(projectId, qnaId);
    });
    return { ok: true };
  }

  async get(projectId: string, qnaId: string): Promise<Qna> {
    const qna = await this.qnas.find(projectId, qnaId);
    if (!qna) throw notFound(qnaId);
    return qna;
  }

  async list(projectId: string, query: ListQnasQuery) {
    const { total, data } = await this.qnas.list(projectId, qnaQuestionFilter(query.query), query.limit, query.offset);
    return { object: 'list' as const, total, limit: query.limit, offset: query.offset, data };
  }

  /** One vector per field of `QNA_FIELDS`, in that order. */
  private async embed(qna: Qna): Promise<number[][]> {
    const vectors = await this.vectors.embedDocuments(QNA_FIELDS.map((field) => qnaEmbeddingText(field, qna.question, qna.answer)));
    if (vectors.length !== QNA_FIELDS.length) throw new Error('the embedder returned too few vectors for the Q&A entry');
    return vectors;
  }

  /** The record is written first; if its vector cannot be, the record is put back as it was. */
  private async indexOrUndo(projectId: string, qna: Qna, vectors: number[][], undo: () => Promise<unknown>): Promise<void> {
    try {
      await this.vectors.upsertQna(
        QNA_FIELDS.map((field, i) => ({
          id: pointId(qna.id, field),
          vector: vectors[i]!,
          payload: { projectId, qnaId: qna.id, kind: 'qna', field, question: qna.question, answer: qna.answer },
        })),
      );
    } catch (err) {
      await undo().catch(() => undefined);
      throw err;
    }
  }
}

const notFound = (qnaId: string): AppError => new AppError('QNA_NOT_FOUND', 'no such Q&A entry in this project', { qnaId });

const entry = (projectId: string, actor: Actor, action: string, qnaId: string, changes?: Record<string, unknown>): NewAuditEntry => ({
  projectId,
  actor,
  action,
  target: { type: 'qna', id: qnaId },
  ...(changes ? { changes } : {}),
});
