import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { SourcePageCounts, SourcePageStatus } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';

export interface StoredPage {
  _id: string;
  projectId: string;
  sourceId: string;
  url: string;
  /** The crawl that last found the page; a page not found by the latest crawl is gone. */
  runId: string;
  status: SourcePageStatus;
  title: string | null;
  error: string | null;
  documentId: string | null;
  contentHash: string | null;
  fetchedAt: string | null;
}

export const pageId = (sourceId: string, url: string): string =>
  createHash('sha256').update(`${sourceId}\n${url}`).digest('hex').slice(0, 40);

/** The pages of each source (collection `source_pages`), one per URL, kept across crawls. */
@Injectable()
export class SourcePageRepository {
  private readonly pages: Collection<StoredPage>;

  constructor(@Inject(Ports.documents) store: DocumentStore) {
    this.pages = store.collection<StoredPage>('source_pages', [
      { keys: { sourceId: 1, runId: 1, status: 1 } },
      { keys: { sourceId: 1, url: 1 } },
    ]);
  }

  /** The page as found by crawl `runId`, pending; what earlier crawls learnt (document, hash) is kept. */
  async found(projectId: string, sourceId: string, runId: string, url: string): Promise<StoredPage> {
    const _id = pageId(sourceId, url);
    const updated = await this.pages.findOneAndUpdate({ _id, sourceId }, { $set: { runId, status: 'pending', error: null } });
    if (updated) return updated;
    const page: StoredPage = {
      _id,
      projectId,
      sourceId,
      url,
      runId,
      status: 'pending',
      title: null,
      error: null,
      documentId: null,
      contentHash: null,
      fetchedAt: null,
    };
    await this.pages.insertOne(page);
    return page;
  }

  async save(page: StoredPage): Promise<void> {
    await this.pages.replaceOne({ _id: page._id, sourceId: page.sourceId }, page);
  }

  ofRun(sourceId: string, runId: string): Promise<StoredPage[]> {
    return this.pages.find({ sourceId, runId });
  }

  /** Pages an earlier crawl found and this one did not. */
  notInRun(sourceId: string, runId: string): Promise<StoredPage[]> {
    return this.pages.find({ sourceId, runId: { $ne: runId } });
  }

  all(sourceId: string): Promise<StoredPage[]> {
    return this.pages.find({ sourceId });
  }

  async deleteOne(page: StoredPage): Promise<void> {
    await this.pages.deleteOne({ _id: page._id, sourceId: page.sourceId });
  }

  async deleteAll(sourceId: string): Promise<void> {
    await this.pages.deleteMany({ sourceId });
  }

  async counts(sourceId: string, runId: string): Promise<SourcePageCounts> {
    const statuses: SourcePageStatus[] = ['indexed', 'unchanged', 'failed', 'skipped'];
    const [found, ...each] = await Promise.all([
      this.pages.count({ sourceId, runId }),
      ...statuses.map((status) => this.pages.count({ sourceId, runId, status })),
    ]);
    return { found: found!, indexed: each[0]!, unchanged: each[1]!, failed: each[2]!, skipped: each[3]! };
  }

  async list(
    sourceId: string,
    runId: string,
    status: SourcePageStatus | undefined,
    limit: number,
    offset: number,
  ): Promise<{ total: number; data: StoredPage[] }> {
    const filter = { sourceId, runId, ...(status ? { status } : {}) };
    const [total, data] = await Promise.all([this.pages.count(filter), this.pages.find(filter, { sort: { url: 1 }, skip: offset, limit })]);
    return { total, data };
  }
}
