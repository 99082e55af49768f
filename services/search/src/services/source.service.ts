import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  CRAWL_QUEUE,
  CRAWL_SOURCE_JOB,
  type CrawlSourceJob,
  SOURCE_DEFAULT_MAX_PAGES,
  type Source,
  type SourceBody,
  type SourcePage,
  type SourcePageStatus,
  type UpdateSourceBody,
} from '@palaver/contracts';
import { type Clock, type JobQueue, OutboundFetchError, type OutboundGuard, OutboundRefusedError, Ports } from '@palaver/platform';
import { OUTBOUND_GUARD } from '../repositories/outbound-guard.provider';
import { SourceRepository, type StoredSource } from '../repositories/source.repository';
import { SourcePageRepository, type StoredPage } from '../repositories/source-page.repository';
import { DocumentService } from './document.service';

/** Runs a crawl job gets when it fails (each resumes the crawl). */
export const CRAWL_ATTEMPTS = 3;

/** One crawl of a source at a time: its job id is the source's (a second enqueue is ignored while it exists). */
export const crawlJobId = (sourceId: string): string => `crawl-${sourceId}`;

/** Website and sitemap sources: made, listed, changed and deleted here; crawled by SourceCrawler on the job queue. */
@Injectable()
export class SourceService {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(SourcePageRepository) private readonly pages: SourcePageRepository,
    @Inject(DocumentService) private readonly documents: DocumentService,
    @Inject(OUTBOUND_GUARD) private readonly guard: OutboundGuard,
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  async create(projectId: string, body: SourceBody, sourceId: string = randomUUID()): Promise<Source> {
    await this.checkUrl(body.url);
    const now = this.now();
    const source: StoredSource = {
      _id: sourceId,
      projectId,
      type: body.type,
      url: new URL(body.url).href,
      maxPages: body.maxPages ?? SOURCE_DEFAULT_MAX_PAGES,
      include: body.include ?? [],
      exclude: body.exclude ?? [],
      refreshIntervalHours: body.refreshIntervalHours ?? null,
      status: 'queued',
      runId: randomUUID(),
      seededRunId: null,
      lastSyncAt: null,
      nextSyncAt: null,
      error: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.sources.insert(source);
    await this.enqueue(source);
    return this.view(source);
  }

  async get(projectId: string, sourceId: string): Promise<Source> {
    return this.view(await this.found(projectId, sourceId));
  }

  async list(projectId: string, limit: number, offset: number) {
    const { total, data } = await this.sources.list(projectId, limit, offset);
    return { object: 'list' as const, total, limit, offset, data: await Promise.all(data.map((s) => this.view(s))) };
  }

  async update(projectId: string, sourceId: string, patch: UpdateSourceBody): Promise<Source> {
    const current = await this.found(projectId, sourceId);
    const set: Partial<StoredSource> = { updatedAt: this.now() };
    if (patch.maxPages !== undefined) set.maxPages = patch.maxPages;
    if (patch.include !== undefined) set.include = patch.include;
    if (patch.exclude !== undefined) set.exclude = patch.exclude;
    if (patch.refreshIntervalHours !== undefined) {
      set.refreshIntervalHours = patch.refreshIntervalHours;
      const from = current.lastSyncAt ?? this.now();
      set.nextSyncAt =
        patch.refreshIntervalHours === null ? null : new Date(Date.parse(from) + patch.refreshIntervalHours * 3_600_000).toISOString();
    }
    const updated = await this.sources.update(projectId, sourceId, set);
    if (!updated) throw notFound(sourceId);
    return this.view(updated);
  }

  /** Crawls again now; a crawl queued or under way is left to finish (not doubled). */
  async sync(projectId: string, sourceId: string): Promise<Source> {
    const current = await this.found(projectId, sourceId);
    if ((current.status === 'queued' || current.status === 'crawling') && (await this.jobs.exists(CRAWL_QUEUE, crawlJobId(sourceId)))) {
      return this.view(current);
    }
    const started = await this.sources.updateAtRun(projectId, sourceId, current.runId, {
      status: 'queued',
      runId: randomUUID(),
      error: null,
      updatedAt: this.now(),
    });
    // Another sync (an admin's, the scheduler's) started one meanwhile: that one stands.
    if (!started) return this.get(projectId, sourceId);
    await this.enqueue(started);
    return this.view(started);
  }

  /** Queues the source's current crawl again if its job is gone (lost with an embedded queue's process). */
  async resumeIfLost(source: StoredSource): Promise<void> {
    if (await this.jobs.exists(CRAWL_QUEUE, crawlJobId(source._id))) return;
    await this.enqueue(source);
  }

  /** Removes the source, then every document it made (a crawl under way stops at its next page). */
  async delete(projectId: string, sourceId: string): Promise<{ ok: true }> {
    await this.found(projectId, sourceId);
    if (!(await this.sources.delete(projectId, sourceId))) throw notFound(sourceId);
    for (const page of await this.pages.all(sourceId)) {
      if (!page.documentId) continue;
      await this.documents.delete(projectId, page.documentId).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === 'DOCUMENT_NOT_FOUND')) throw err;
      });
    }
    await this.pages.deleteAll(sourceId);
    return { ok: true };
  }

  async listPages(projectId: string, sourceId: string, status: SourcePageStatus | undefined, limit: number, offset: number) {
    const source = await this.found(projectId, sourceId);
    const { total, data } = await this.pages.list(sourceId, source.runId, status, limit, offset);
    return { object: 'list' as const, total, limit, offset, data: data.map(pageView) };
  }

  private async enqueue(source: StoredSource): Promise<void> {
    const job: CrawlSourceJob = { projectId: source.projectId, sourceId: source._id, runId: source.runId };
    await this.jobs.enqueue(CRAWL_QUEUE, CRAWL_SOURCE_JOB, job, { jobId: crawlJobId(source._id), attempts: CRAWL_ATTEMPTS });
  }

  /** A URL the crawler may not fetch is refused when the source is made: 422 with the reason. */
  private async checkUrl(url: string): Promise<void> {
    try {
      await this.guard.checkUrl(url);
    } catch (err) {
      if (err instanceof OutboundRefusedError || err instanceof OutboundFetchError) {
        throw new AppError('VALIDATION_ERROR', `the URL cannot be crawled: ${err.message}`, { field: 'url', reason: err.message });
      }
      throw err;
    }
  }

  private async found(projectId: string, sourceId: string): Promise<StoredSource> {
    const source = await this.sources.find(projectId, sourceId);
    if (!source) throw notFound(sourceId);
    return source;
  }

  private async view(source: StoredSource): Promise<Source> {
    return {
      object: 'source',
      id: source._id,
      projectId: source.projectId,
      type: source.type,
      url: source.url,
      maxPages: source.maxPages,
      include: source.include,
      exclude: source.exclude,
      refreshIntervalHours: source.refreshIntervalHours,
      status: source.status,
      pages: await this.pages.counts(source._id, source.runId),
      lastSyncAt: source.lastSyncAt,
      nextSyncAt: source.nextSyncAt,
      error: source.error,
      createdAt: source.createdAt,
      updatedAt: source.updatedAt,
    };
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

const pageView = (page: StoredPage): SourcePage => ({
  url: page.url,
  title: page.title,
  status: page.status,
  error: page.error,
  documentId: page.documentId,
  contentHash: page.contentHash,
  fetchedAt: page.fetchedAt,
});

const notFound = (sourceId: string): AppError => new AppError('SOURCE_NOT_FOUND', 'no such source in this project', { sourceId });
