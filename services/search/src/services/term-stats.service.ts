import { Inject, Injectable } from '@nestjs/common';
import type { DocumentRecord } from '@palaver/contracts';
import { type Clock, type Embedder, logger, Ports, type TermWeighting } from '@palaver/platform';
import { documentChunks } from '../domain/knowledge-text';
import { contributionOf, countsDelta, idfWeights, statsShardOf, sumCounts, type TermCounts } from '../domain/term-statistics';
import { type DocumentChange, DocumentRepository } from '../repositories/document.repository';
import { TermStatsRepository } from '../repositories/term-stats.repository';

/**
 * A project's counts are kept in this many shards (by document): a write rewrites one shard, so
 * what it writes grows with a sixteenth of the documents, not with all of them.
 */
export const TERM_STATS_SHARDS = 16;
const REBUILD_PAGE = 100;
const REBUILD_ATTEMPTS = 5;
/** How long a read of a project's counts is reused; this instance's own writes refresh it at once. */
const CACHE_TTL_MS = 5_000;
const CACHE_PROJECTS = 1_000;

/**
 * Document frequencies of each project's chunks, for an embedder that offers term weighting
 * (the local one): chunk queries then weight each term by its IDF (bench/retrieval.bench.ts,
 * row (g)). With any other embedder nothing is counted and queries stay as the model embeds them.
 *
 * The counts follow the documents' live versions: each change moves one document from the
 * version it had to the one it has, in one atomic update of the document's shard guarded by the
 * version the shard holds for it, so a change is counted once however often it is applied.
 * When the guard does not hold and the shard does not hold the document's current version
 * either (counts missing, of another scheme, or a change missed), the project is recounted from
 * its documents.
 */
@Injectable()
export class TermStatsService {
  private readonly cache = new Map<string, { counts: TermCounts; until: number }>();
  /** Bumped around every write of this instance, so that a read that overlapped one is not cached. */
  private epoch = 0;
  /** Recounts started by queries, shared by the queries that arrive meanwhile. */
  private readonly queryRebuilds = new Map<string, Promise<TermCounts | null>>();

  constructor(
    @Inject(Ports.embedder) private readonly embedder: Embedder,
    @Inject(TermStatsRepository) private readonly stats: TermStatsRepository,
    @Inject(DocumentRepository) private readonly documents: DocumentRepository,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  /**
   * The query's vector for ranking the project's chunks with its terms weighted by IDF; null
   * when the embedder has no term weighting, the project has no chunk or its counts cannot be
   * read (embed it as usual).
   */
  async chunkQueryVector(projectId: string, text: string): Promise<number[] | null> {
    const weighting = this.embedder.termWeighting;
    if (!weighting) return null;
    const counts = await this.counts(projectId, weighting).catch((err: unknown) => {
      logger.warn({ err, projectId }, 'term statistics unreadable: ranking without them');
      return null;
    });
    if (!counts || counts.chunks <= 0) return null;
    return weighting.embedWeightedQuery(text, idfWeights(counts));
  }

  /**
   * Counts a document's change from `before` to `after` (null: no document), once its record
   * is written. Never fails the caller: the write it follows has happened. If the counts cannot
   * be written they are dropped, and the next query recounts them.
   */
  async documentChanged({ projectId, documentId, before, after }: DocumentChange): Promise<void> {
    const weighting = this.embedder.termWeighting;
    if (!weighting) return;
    this.touch(projectId);
    try {
      const delta = countsDelta(before && this.contribution(before.record, weighting), after && this.contribution(after.record, weighting));
      const from = before?.version ?? null;
      const to = after?.version ?? null;
      const shard = statsShardOf(documentId, TERM_STATS_SHARDS);
      if (await this.stats.move(projectId, shard, weighting.scheme, documentId, from, to, delta)) return;
      // Not at `from`: nothing to do if the shard holds the document as it is now (this change or
      // a later one was counted already); otherwise the counts are off, and are recounted.
      const [current, live] = await Promise.all([this.stats.find(projectId, shard), this.documents.find(projectId, documentId)]);
      if (current?.scheme === weighting.scheme && (current.live[documentId] ?? null) === (live?.version ?? null)) return;
      await this.rebuild(projectId, weighting);
    } catch (err) {
      logger.warn({ err, projectId, documentId }, 'term statistics not updated: dropping them to be recounted');
      await this.stats.drop(projectId).catch(() => undefined);
    } finally {
      this.touch(projectId);
    }
  }

  private async counts(projectId: string, weighting: TermWeighting): Promise<TermCounts | null> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(projectId);
    if (cached && cached.until > now) return cached.counts;
    const epoch = this.epoch;
    const shards = await this.stats.findAll(projectId);
    const complete = shards.length === TERM_STATS_SHARDS && shards.every((shard) => shard.scheme === weighting.scheme);
    const counts = complete ? sumCounts(shards) : await this.rebuildForQuery(projectId, weighting);
    if (counts && this.epoch === epoch) {
      this.cache.delete(projectId);
      if (this.cache.size >= CACHE_PROJECTS) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(projectId, { counts: { chunks: counts.chunks, df: counts.df }, until: now + CACHE_TTL_MS });
    }
    return counts;
  }

  /** Not for a write: it may join a recount that started before the write. */
  private rebuildForQuery(projectId: string, weighting: TermWeighting): Promise<TermCounts | null> {
    let running = this.queryRebuilds.get(projectId);
    if (!running) {
      running = this.rebuild(projectId, weighting).finally(() => this.queryRebuilds.delete(projectId));
      this.queryRebuilds.set(projectId, running);
    }
    return running;
  }

  /** Recounts the project from its documents; null if concurrent writes kept it from settling. */
  private async rebuild(projectId: string, weighting: TermWeighting): Promise<TermCounts | null> {
    for (let attempt = 0; attempt < REBUILD_ATTEMPTS; attempt++) {
      const generations = new Map((await this.stats.findAll(projectId)).map((s) => [s.shard, s.generation]));
      const shards = Array.from({ length: TERM_STATS_SHARDS }, () => ({ parts: [] as TermCounts[], live: {} as Record<string, string> }));
      let documentCount = 0;
      for (let afterId: string | null = null; ; ) {
        const page = await this.documents.pageByIdAfter(projectId, afterId, REBUILD_PAGE);
        for (const { record, version } of page) {
          const shard = shards[statsShardOf(record.id, TERM_STATS_SHARDS)]!;
          shard.parts.push(this.contribution(record, weighting));
          shard.live[record.id] = version;
        }
        documentCount += page.length;
        if (page.length < REBUILD_PAGE) break;
        afterId = page.at(-1)!.record.id;
      }
      // A project without documents needs no record (a search must not write one).
      if (generations.size === 0 && documentCount === 0) return { chunks: 0, df: {} };
      const counted = shards.map(({ parts, live }, shard) => ({
        projectId,
        shard,
        scheme: weighting.scheme,
        ...sumCounts(parts),
        live,
      }));
      const written = await Promise.all(counted.map((stats) => this.stats.replace(stats, generations.get(stats.shard) ?? null)));
      if (written.every(Boolean)) return sumCounts(counted);
    }
    logger.warn({ projectId }, 'term statistics not recounted: the documents kept changing');
    return null;
  }

  private contribution(record: DocumentRecord, weighting: TermWeighting): TermCounts {
    return contributionOf(documentChunks(record.title, record.content).map(({ text }) => weighting.termBuckets(text)));
  }

  private touch(projectId: string): void {
    this.cache.delete(projectId);
    this.epoch += 1;
  }
}
