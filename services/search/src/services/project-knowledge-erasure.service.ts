import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@palaver/contracts';
import { type DocumentStore, drainListing, Ports, type VectorIndex } from '@palaver/platform';
import { KnowledgeVectors } from '../repositories/knowledge-vectors';
import { QnaRepository } from '../repositories/qna.repository';
import { DocumentService } from './document.service';
import { SourceService } from './source.service';

/** Where a deleted item's text can stay on disk until the embedded files are rewritten. */
const KNOWLEDGE_COLLECTIONS = ['sources', 'source_pages', 'documents', 'qnas', 'search_term_stats', 'search_knowledge_revisions'];

/** Items deleted per listing; a project with more is worked through until nothing is left. */
const BATCH = 100;

/** One already gone (a concurrent or an earlier, interrupted run) is not a failure. */
const unlessGone = async (remove: () => Promise<unknown>): Promise<void> => {
  try {
    await remove();
  } catch (err) {
    if (!(err instanceof AppError && err.code.endsWith('NOT_FOUND'))) throw err;
  }
};

/**
 * A deleted project's knowledge (docs/privacy.md): its sources (with their pages), documents and
 * Q&A, each through the path that deletes one (vectors, lexical index and term statistics with
 * it), without an audit entry each: the project's deletion is audited once, by identity. Then the
 * embedded files are rewritten without them (as a visitor's erasure compacts). Idempotent, so an
 * interrupted run is finished by the next.
 */
@Injectable()
export class ProjectKnowledgeErasureService {
  constructor(
    @Inject(SourceService) private readonly sources: SourceService,
    @Inject(DocumentService) private readonly documents: DocumentService,
    @Inject(QnaRepository) private readonly qnas: QnaRepository,
    @Inject(KnowledgeVectors) private readonly vectors: KnowledgeVectors,
    @Inject(Ports.documents) private readonly store: DocumentStore,
    @Inject(Ports.vectors) private readonly index: VectorIndex,
  ) {}

  async erase(projectId: string): Promise<{ ok: true }> {
    const sources = await deleteListed(
      () => this.sources.list(projectId, BATCH, 0),
      (id) => unlessGone(() => this.sources.delete(projectId, id)),
    );
    const documents = await deleteListed(
      () => this.documents.list(projectId, BATCH, 0),
      (id) => unlessGone(() => this.documents.delete(projectId, id)),
    );
    const qnas = await deleteListed(
      () => this.qnas.list(projectId, {}, BATCH, 0),
      async (id) => {
        await this.qnas.delete(projectId, id);
        await this.vectors.deleteQna(projectId, id);
      },
    );
    const deleted = sources + documents + qnas;
    // A run that found nothing (the retention run's check of a long-deleted project) rewrites no file.
    if (deleted > 0) {
      await this.store.compact(KNOWLEDGE_COLLECTIONS);
      await this.index.compact();
    }
    return { ok: true };
  }
}

/** Deletes, one by one, what the first page of a listing answers until it answers nothing new; answers how many. */
const deleteListed = (list: () => Promise<{ data: { id: string }[] }>, remove: (id: string) => Promise<void>): Promise<number> =>
  drainListing(
    async () => (await list()).data,
    (item) => item.id,
    async (batch) => {
      for (const item of batch) await remove(item.id);
    },
  );
