import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, Ports, replaceIfUnchanged } from '@palaver/platform';
import type { TermCounts } from '../domain/term-statistics';

/**
 * One shard of a project's document frequencies (collection `search_term_stats`): the counts of
 * the documents that fall in it, and the version each is counted at.
 */
export interface StoredTermStats extends TermCounts {
  /** `<projectId>:<shard>` */
  _id: string;
  projectId: string;
  shard: number;
  /** The embedder's term-weighting scheme the counts were made with. */
  scheme: string;
  /** Document id -> the version whose chunks are counted: the guard that applies each change once. */
  live: Record<string, string>;
  /** Incremented by every write, so that a recount does not overwrite a change it did not see. */
  generation: number;
}

export const termStatsId = (projectId: string, shard: number): string => `${projectId}:${shard}`;

@Injectable()
export class TermStatsRepository {
  private readonly stats: Collection<StoredTermStats>;

  constructor(@Inject(Ports.documents) store: DocumentStore) {
    this.stats = store.collection<StoredTermStats>('search_term_stats', [{ keys: { projectId: 1 } }]);
  }

  /** Every shard of the project's counts, by shard number. */
  async findAll(projectId: string): Promise<StoredTermStats[]> {
    return this.stats.find({ projectId }, { sort: { shard: 1 } });
  }

  async find(projectId: string, shard: number): Promise<StoredTermStats | null> {
    return this.stats.findOne({ _id: termStatsId(projectId, shard) });
  }

  /**
   * Moves the document from version `from` to version `to` (null: not counted) by adding `delta`
   * to its shard, only if the shard holds it at `from` under `scheme`. False when it does not:
   * the change was applied already, another one came first, or the counts are missing or of
   * another scheme.
   */
  async move(
    projectId: string,
    shard: number,
    scheme: string,
    documentId: string,
    from: string | null,
    to: string | null,
    delta: TermCounts,
  ): Promise<boolean> {
    const field = `live.${documentId}`;
    const inc: Record<string, number> = { chunks: delta.chunks, generation: 1 };
    for (const [bucket, n] of Object.entries(delta.df)) inc[`df.${bucket}`] = n;
    const { matched } = await this.stats.updateOne(
      { _id: termStatsId(projectId, shard), scheme, [field]: from ?? { $exists: false } },
      to === null ? { $inc: inc, $unset: { [field]: '' } } : { $inc: inc, $set: { [field]: to } },
    );
    return matched > 0;
  }

  /**
   * Writes a shard counted from scratch if nothing was written to it since `expectedGeneration`
   * was read (null: it did not exist). False when something was: the caller recounts.
   */
  replace(stats: Omit<StoredTermStats, '_id' | 'generation'>, expectedGeneration: number | null): Promise<boolean> {
    const doc = { ...stats, _id: termStatsId(stats.projectId, stats.shard), generation: (expectedGeneration ?? 0) + 1 };
    return replaceIfUnchanged(this.stats, doc, expectedGeneration === null ? null : { generation: expectedGeneration });
  }

  async drop(projectId: string): Promise<void> {
    await this.stats.deleteMany({ projectId });
  }
}
