import { Inject, Injectable } from '@nestjs/common';
import type { SourceStatus } from '@palaver/contracts';
import { type Collection, type DocumentStore, type FoundPage, findPage, Ports } from '@palaver/platform';

export interface StoredSource {
  _id: string;
  projectId: string;
  type: 'website' | 'sitemap';
  url: string;
  maxPages: number;
  include: string[];
  exclude: string[];
  refreshIntervalHours: number | null;
  status: SourceStatus;
  /** The current (or latest) crawl: its pages carry this id. */
  runId: string;
  /** The crawl whose start pages and sitemaps were read already (a resumed crawl does not read them again). */
  seededRunId: string | null;
  /** Where the start URL led when that crawl began (after redirects); its origin is crawled. */
  startUrl?: string;
  lastSyncAt: string | null;
  nextSyncAt: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Website and sitemap sources (collection `sources`); every query but the scheduler's is scoped to a project. */
@Injectable()
export class SourceRepository {
  private readonly sources: Collection<StoredSource>;

  constructor(@Inject(Ports.documents) store: DocumentStore) {
    this.sources = store.collection<StoredSource>('sources', [{ keys: { projectId: 1, createdAt: -1 } }, { keys: { nextSyncAt: 1 } }]);
  }

  async insert(source: StoredSource): Promise<void> {
    await this.sources.insertOne(source);
  }

  find(projectId: string, sourceId: string): Promise<StoredSource | null> {
    return this.sources.findOne({ _id: sourceId, projectId });
  }

  /** Applies `set` if the source is still at `runId`; the updated source, or null when it moved on or is gone. */
  updateAtRun(projectId: string, sourceId: string, runId: string, set: Partial<StoredSource>): Promise<StoredSource | null> {
    return this.sources.findOneAndUpdate({ _id: sourceId, projectId, runId }, { $set: set });
  }

  update(projectId: string, sourceId: string, set: Partial<StoredSource>): Promise<StoredSource | null> {
    return this.sources.findOneAndUpdate({ _id: sourceId, projectId }, { $set: set });
  }

  async delete(projectId: string, sourceId: string): Promise<boolean> {
    return (await this.sources.deleteOne({ _id: sourceId, projectId })) > 0;
  }

  list(projectId: string, limit: number, offset: number): Promise<FoundPage<StoredSource>> {
    return findPage(this.sources, { projectId }, { sort: { createdAt: -1, _id: 1 }, limit, offset });
  }

  /** Sources whose next scheduled crawl is due and that are not crawling. */
  due(now: string, limit: number): Promise<StoredSource[]> {
    return this.sources.find(
      { nextSyncAt: { $ne: null, $lte: now }, status: { $in: ['ready', 'failed'] } },
      { sort: { nextSyncAt: 1 }, limit },
    );
  }

  /** Sources with a crawl queued or under way (to find those whose job was lost). */
  unfinished(limit: number): Promise<StoredSource[]> {
    return this.sources.find({ status: { $in: ['queued', 'crawling'] } }, { limit });
  }
}
