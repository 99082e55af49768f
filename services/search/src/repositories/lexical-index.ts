import { Inject, Injectable } from '@nestjs/common';
import type { DocumentRecord } from '@palaver/contracts';
import { analyzeText, type Clock, type Config, logger, Ports, SerialQueue } from '@palaver/platform';
import { Bm25Index } from '../domain/bm25.index';
import { pointId } from '../domain/point-id';
import { type DocumentChange, DocumentRepository } from './document.repository';
import { KnowledgeRevisionRepository } from './knowledge-revision.repository';

/** How often a project's revision is read to learn of writes made by other instances. */
export const REVISION_CHECK_MS = 1_000;
const SYNC_PAGE = 200;

/** The terms BM25 counts: the local analyzer's (stop words out, light stemming, support synonyms). */
export const lexicalTokens = (text: string): string[] => analyzeText(text).map((t) => t.term);

/** A document BM25 found, with the ids of its chunks' vector points. */
export interface LexicalHit {
  documentId: string;
  score: number;
  chunkIds: string[];
}

interface ProjectState {
  /** By document id. */
  index: Bm25Index;
  /** Document id -> the version the index holds, and its chunks' point ids. */
  documents: Map<string, { version: string; chunkIds: string[] }>;
  /** The project's knowledge revision the index reflects. */
  revision: number;
  checkedAt: number;
  /** Syncs and writes of the project run one at a time, in order. */
  queue: SerialQueue;
}

/**
 * The lexical half of hybrid search: a BM25 index of each project's documents (title and
 * content: a word's frequency in the whole page is the evidence BM25 is made for; the vector
 * index then tells the document's chunks apart). It is a derived cache held in memory by each search
 * instance, built from the project's documents (the source of truth, in the document store) on
 * the first search after a start, and updated at once by this instance's writes. In distributed
 * mode other instances learn of a write through the project's knowledge revision, read at most
 * every second, and then reconcile with the documents (re-analyzing only those that changed).
 * Nothing extra is persisted, so nothing can disagree with the documents after a crash. The
 * indexes together hold at most `LEXICAL_INDEX_MAX_TOKENS` terms: past it, the least recently
 * searched projects' are dropped (and rebuilt by their next search).
 */
@Injectable()
export class LexicalIndex {
  /** The least recently searched first (a Map keeps insertion order). */
  private readonly projects = new Map<string, ProjectState>();
  private readonly maxTokens: number;

  constructor(
    @Inject(DocumentRepository) private readonly documents: DocumentRepository,
    @Inject(KnowledgeRevisionRepository) private readonly revisions: KnowledgeRevisionRepository,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) config: Pick<Config, 'LEXICAL_INDEX_MAX_TOKENS'>,
  ) {
    this.maxTokens = config.LEXICAL_INDEX_MAX_TOKENS;
  }

  /** The best `limit` documents for the query, best first. */
  async search(projectId: string, query: string, limit: number): Promise<LexicalHit[]> {
    const state = await this.current(projectId);
    return state.index.search(lexicalTokens(query), limit).map(({ id, score }) => ({
      documentId: id,
      score,
      chunkIds: state.documents.get(id)?.chunkIds ?? [],
    }));
  }

  /** The BM25 scores of the documents `documentIds` for the query (found by the vector index alone). */
  async scoreOf(projectId: string, query: string, documentIds: readonly string[]): Promise<Map<string, number>> {
    const state = await this.current(projectId);
    return new Map(state.index.scoreOf(lexicalTokens(query), documentIds).map(({ id, score }) => [id, score]));
  }

  /** The version of each of the documents that the index holds (as of its last sync). */
  async versions(projectId: string, documentIds: readonly string[]): Promise<Map<string, string>> {
    const state = await this.current(projectId);
    const out = new Map<string, string>();
    for (const id of documentIds) {
      const version = state.documents.get(id)?.version;
      if (version !== undefined) out.set(id, version);
    }
    return out;
  }

  /**
   * Applies a document's change from `before` to `after` (null: no document) once its record is
   * written, and advances the project's revision. Never fails the caller: the write happened;
   * an index that could not follow is dropped and rebuilt by the next search.
   */
  async documentChanged({ projectId, documentId, before, after }: DocumentChange): Promise<void> {
    const state = this.projects.get(projectId);
    try {
      if (!state) {
        await this.revisions.advance(projectId);
        return;
      }
      await state.queue.run(async () => {
        if (after) this.put(state, after);
        else this.drop(state, documentId);
        this.evictBeyondBudget(projectId);
        // Counted as this index's own revision only if no other write was counted meanwhile.
        if (await this.revisions.advanceFrom(projectId, state.revision)) state.revision += 1;
        else await this.revisions.advance(projectId);
      });
    } catch (err) {
      logger.warn({ err, projectId, documentId, before: before?.version }, 'lexical index not updated: rebuilding it');
      this.projects.delete(projectId);
    }
  }

  private async current(projectId: string): Promise<ProjectState> {
    const state = this.projects.get(projectId) ?? {
      index: new Bm25Index(),
      documents: new Map(),
      revision: -1,
      checkedAt: 0,
      queue: new SerialQueue(),
    };
    // Set again, so that it is now the most recently searched.
    this.projects.delete(projectId);
    this.projects.set(projectId, state);
    const now = this.clock.now().getTime();
    if (state.revision >= 0 && now - state.checkedAt < REVISION_CHECK_MS) return state;
    await state.queue.run(async () => {
      if (state.revision >= 0 && this.clock.now().getTime() - state.checkedAt < REVISION_CHECK_MS) return;
      const revision = await this.revisions.read(projectId);
      if (revision !== state.revision) {
        await this.reconcile(projectId, state);
        this.evictBeyondBudget(projectId);
      }
      state.revision = revision;
      state.checkedAt = this.clock.now().getTime();
    });
    return state;
  }

  /** Brings the index to the project's documents as they are: only changed documents are re-analyzed. */
  private async reconcile(projectId: string, state: ProjectState): Promise<void> {
    const seen = new Set<string>();
    for (let afterId: string | null = null; ; ) {
      const page = await this.documents.pageByIdAfter(projectId, afterId, SYNC_PAGE);
      for (const doc of page) {
        seen.add(doc.record.id);
        if (state.documents.get(doc.record.id)?.version !== doc.version) this.put(state, doc);
      }
      if (page.length < SYNC_PAGE) break;
      afterId = page.at(-1)!.record.id;
    }
    for (const documentId of [...state.documents.keys()]) if (!seen.has(documentId)) this.drop(state, documentId);
  }

  /**
   * Drops the least recently searched projects' indexes until all of them hold at most the
   * budget's terms, `keep` (the project at hand) excepted. A search or write still running on a
   * dropped index finishes on it; the next one builds the project's index again.
   */
  private evictBeyondBudget(keep: string): void {
    let total = 0;
    for (const state of this.projects.values()) total += state.index.tokenCount;
    for (const [projectId, state] of this.projects) {
      if (total <= this.maxTokens) return;
      if (projectId === keep) continue;
      this.projects.delete(projectId);
      total -= state.index.tokenCount;
      logger.debug({ projectId, tokens: state.index.tokenCount }, 'lexical index dropped: over LEXICAL_INDEX_MAX_TOKENS');
    }
  }

  private put(state: ProjectState, { record, version }: { record: DocumentRecord; version: string }): void {
    state.index.add(record.id, lexicalTokens(`${record.title}\n${record.content}`));
    // Chunks are numbered from 0 (chunker.ts) under the version's point ids (DocumentService).
    const chunkIds = Array.from({ length: record.chunkCount }, (_, i) => pointId(record.id, version, i));
    state.documents.set(record.id, { version, chunkIds });
  }

  private drop(state: ProjectState, documentId: string): void {
    state.index.remove(documentId);
    state.documents.delete(documentId);
  }
}
