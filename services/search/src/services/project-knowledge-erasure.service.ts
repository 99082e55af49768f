import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@palaver/contracts';
import { type DocumentStore, Ports, type VectorIndex } from '@palaver/platform';
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
    for (
      let page = await this.sources.list(projectId, BATCH, 0);
      page.data.length > 0;
      page = await this.sources.list(projectId, BATCH, 0)
    ) {
      for (const source of page.data) await unlessGone(() => this.sources.delete(projectId, source.id));
    }
    for (
      let page = await this.documents.list(projectId, BATCH, 0);
      page.data.length > 0;
      page = await this.documents.list(projectId, BATCH, 0)
    ) {
      for (const document of page.data) await unlessGone(() => this.documents.delete(projectId, document.id));
    }
    for (
      let page = await this.qnas.list(projectId, {}, BATCH, 0);
      page.data.length > 0;
      page = await this.qnas.list(projectId, {}, BATCH, 0)
    ) {
      for (const qna of page.data) {
        await this.qnas.delete(projectId, qna.id);
        await this.vectors.deleteQna(projectId, qna.id);
      }
    }
    await this.store.compact(KNOWLEDGE_COLLECTIONS);
    await this.index.compact();
    return { ok: true };
  }
}
