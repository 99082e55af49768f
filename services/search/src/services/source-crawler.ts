import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@palaver/contracts';
import { type Clock, type Config, logger, OutboundFetchError, type OutboundGuard, OutboundRefusedError, Ports } from '@palaver/platform';
import robotsParser from 'robots-parser';
import {
  CRAWL_MAX_BYTES,
  CRAWL_MAX_DELAY_MS,
  CRAWL_MAX_SITEMAP_BYTES,
  CRAWL_MAX_SITEMAPS,
  CRAWL_TIMEOUT_MS,
  CRAWLER_NAME,
  CRAWLER_USER_AGENT,
  type CrawlPace,
} from '../domain/crawl.settings';
import { CrawlScope, normalizeUrl } from '../domain/crawl-scope';
import { contentKind, extractContent, UnreadableContentError } from '../domain/document-extract';
import type { ExtractedPage } from '../domain/html-extract';
import { parseSitemap } from '../domain/sitemap';
import { OUTBOUND_GUARD } from '../repositories/outbound-guard.provider';
import { SourceRepository, type StoredSource } from '../repositories/source.repository';
import { SourcePageRepository, type StoredPage } from '../repositories/source-page.repository';
import { DocumentService } from './document.service';

const MAX_TITLE = 500;
const MAX_CONTENT = 2_000_000;
const ACCEPT =
  'text/html,application/xhtml+xml,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document;q=0.9,text/plain;q=0.8,*/*;q=0.1';

type Robots = ReturnType<typeof robotsParser>;

/** The crawl was overtaken: the source was deleted or a newer crawl of it started. */
class CrawlSuperseded extends Error {}

/**
 * One crawl of a source: reads robots.txt and the sitemaps, then fetches the pages of the site's
 * origin breadth first, turning each into a document through the document service. Every page
 * found is recorded as the crawl goes (its counters are the source's progress), so a crawl whose
 * process died resumes with the pages still pending. At the end, the pages the crawl did not
 * find lose their documents. One file because the crawl's steps share its run state (the queue,
 * the counters, the politeness delay per host) and read top to bottom as one procedure.
 */
@Injectable()
export class SourceCrawler {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(SourcePageRepository) private readonly pages: SourcePageRepository,
    @Inject(DocumentService) private readonly documents: DocumentService,
    @Inject(OUTBOUND_GUARD) private readonly guard: OutboundGuard,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Config,
  ) {}

  /** `lastAttempt`: the job will not run again, so a failure ends the crawl as failed. */
  async crawl(projectId: string, sourceId: string, runId: string, lastAttempt = false): Promise<void> {
    const source = await this.sources.updateAtRun(projectId, sourceId, runId, { status: 'crawling', updatedAt: this.now() });
    if (!source) return;
    const run = new CrawlRun(source, this.sources, this.pages, this.documents, this.guard, this.pace(), () => this.now());
    try {
      const outcome = await run.run();
      const now = this.now();
      const interval = source.refreshIntervalHours;
      await this.sources.updateAtRun(projectId, sourceId, runId, {
        status: outcome.error ? 'failed' : 'ready',
        error: outcome.error,
        lastSyncAt: now,
        nextSyncAt: interval ? new Date(Date.parse(now) + interval * 3_600_000).toISOString() : null,
        updatedAt: now,
      });
    } catch (err) {
      if (err instanceof CrawlSuperseded) return;
      if (lastAttempt) {
        const now = this.now();
        await this.sources.updateAtRun(projectId, sourceId, runId, {
          status: 'failed',
          error: `the crawl failed: ${err instanceof Error ? err.message : String(err)}`,
          lastSyncAt: now,
          nextSyncAt: source.refreshIntervalHours
            ? new Date(Date.parse(now) + source.refreshIntervalHours * 3_600_000).toISOString()
            : null,
          updatedAt: now,
        });
      }
      // The store or the document service failed: the job runs again (and resumes) unless this was its last attempt.
      throw err;
    }
  }

  private pace(): CrawlPace {
    return { concurrency: this.config.CRAWL_CONCURRENCY, delayMs: this.config.CRAWL_DELAY_MS };
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

class CrawlRun {
  private scope: CrawlScope;
  /** The start URL after its redirects (http to https, to www…): its origin is the one crawled. */
  private startUrl: string;
  /** Every URL this crawl found (null while its record is being written). */
  private readonly known = new Map<string, StoredPage | null>();
  private readonly queue: StoredPage[] = [];
  private robots: Robots | null = null;
  private delayMs: number;
  private nextStart = 0;
  private wake: (() => void) | null = null;

  constructor(
    private readonly source: StoredSource,
    private readonly sources: SourceRepository,
    private readonly pages: SourcePageRepository,
    private readonly documents: DocumentService,
    private readonly guard: OutboundGuard,
    private readonly pace: CrawlPace,
    private readonly now: () => string,
  ) {
    this.startUrl = source.startUrl ?? normalizeUrl(source.url) ?? source.url;
    this.scope = new CrawlScope(new URL(this.startUrl).origin, source.include, source.exclude);
    this.delayMs = pace.delayMs;
  }

  /** Crawls to the end; `error` says why the source as a whole failed (its start page or sitemap could not be read). */
  async run(): Promise<{ error: string | null }> {
    const { source } = this;
    const seeded = source.seededRunId === source.runId;
    if (!seeded) await this.followStartRedirects();
    await this.readRobots();
    for (const page of await this.pages.ofRun(source._id, source.runId)) {
      this.known.set(page.url, page);
      if (page.status === 'pending') this.queue.push(page);
    }
    let seedError: string | null = null;
    if (!seeded) {
      seedError = await this.seed();
      await this.sources.updateAtRun(source.projectId, source._id, source.runId, { seededRunId: source.runId, startUrl: this.startUrl });
    }
    await this.drain();
    await this.dropPagesNotFound();
    const start = this.known.get(this.startUrl);
    const anyRead = [...this.known.values()].some((p) => p?.status === 'indexed' || p?.status === 'unchanged');
    if (seedError && !anyRead) return { error: seedError };
    if (source.type === 'website' && start?.status === 'failed' && !anyRead) return { error: start.error };
    return { error: null };
  }

  /**
   * A site's address often redirects to another origin (http to https, the bare domain to www):
   * the crawl then keeps to the origin it lands on (asked once per crawl, with HEAD; a resumed
   * crawl keeps the one it found). Each hop goes through the guard.
   */
  private async followStartRedirects(): Promise<void> {
    await this.turn();
    const response = await this.guard
      .fetch(this.source.url, { method: 'HEAD', timeoutMs: CRAWL_TIMEOUT_MS, headers: { 'user-agent': this.userAgent(), accept: ACCEPT } })
      .catch(() => null);
    const landed = response ? normalizeUrl(response.url) : null;
    if (!landed || landed === this.startUrl) return;
    this.startUrl = landed;
    this.scope = new CrawlScope(new URL(landed).origin, this.source.include, this.source.exclude);
  }

  private async readRobots(): Promise<void> {
    const url = `${this.scope.origin}/robots.txt`;
    const text = await this.fetchText(url, CRAWL_MAX_SITEMAP_BYTES).catch(() => null);
    if (text === null) return;
    this.robots = robotsParser(url, text);
    const delay = this.robots.getCrawlDelay(CRAWLER_NAME);
    if (delay !== undefined && delay > 0) this.delayMs = Math.max(this.delayMs, Math.min(delay * 1000, CRAWL_MAX_DELAY_MS));
  }

  /** Adds the start URL and every URL the sitemaps list; returns an error when a sitemap source's sitemap cannot be read. */
  private async seed(): Promise<string | null> {
    const { source } = this;
    const sitemaps: string[] = [];
    let error: string | null = null;
    if (source.type === 'website') {
      await this.found(this.startUrl);
      sitemaps.push(`${this.scope.origin}/sitemap.xml`, ...(this.robots?.getSitemaps() ?? []));
    } else {
      sitemaps.push(this.startUrl);
    }
    const seen = new Set<string>();
    while (sitemaps.length > 0 && seen.size < CRAWL_MAX_SITEMAPS) {
      const url = normalizeUrl(sitemaps.shift()!);
      if (!url || seen.has(url) || !this.scope.sameOrigin(url)) continue;
      seen.add(url);
      let xml: string | null;
      try {
        xml = await this.fetchText(url, CRAWL_MAX_SITEMAP_BYTES);
      } catch (err) {
        xml = null;
        if (url === this.startUrl) error = `the sitemap could not be read: ${(err as Error).message}`;
      }
      if (xml === null) {
        if (url === this.startUrl) error ??= 'the sitemap could not be read';
        continue;
      }
      const parsed = parseSitemap(xml);
      sitemaps.push(...parsed.sitemaps);
      for (const page of parsed.urls) await this.found(page);
    }
    return error;
  }

  /** A 2xx body as text, or null for another status. */
  private async fetchText(url: string, maxBytes: number): Promise<string | null> {
    await this.turn();
    const response = await this.guard.fetch(url, {
      maxBytes,
      timeoutMs: CRAWL_TIMEOUT_MS,
      sameOriginRedirects: true,
      headers: { 'user-agent': this.userAgent() },
    });
    return response.status >= 200 && response.status < 300 ? response.body.toString('utf8') : null;
  }

  private userAgent(): string {
    return CRAWLER_USER_AGENT;
  }

  /** Records a URL the crawl found (in scope, new, within maxPages); robots-disallowed ones as skipped. */
  private async found(raw: string, base?: string): Promise<void> {
    const url = normalizeUrl(raw, base);
    if (!url || this.known.has(url) || !this.scope.allows(url)) return;
    if (this.known.size >= this.source.maxPages) return;
    // Claimed before the write: two pages linking here at once must not both record it.
    this.known.set(url, null);
    const page = await this.pages.found(this.source.projectId, this.source._id, this.source.runId, url);
    this.known.set(url, page);
    if (this.robots && this.robots.isAllowed(url, CRAWLER_NAME) === false) {
      await this.settle(page, { status: 'skipped', error: 'disallowed by robots.txt', dropDocument: true });
      return;
    }
    this.queue.push(page);
    this.wake?.();
  }

  /** Fetches pending pages, `pace.concurrency` at a time, until none is pending or in flight. */
  private async drain(): Promise<void> {
    const running = new Set<Promise<void>>();
    let failure: unknown = null;
    for (;;) {
      if (failure) {
        // The pages in flight finish first: one stopped halfway could leave a document behind.
        await Promise.allSettled([...running]);
        throw failure;
      }
      while (this.queue.length > 0 && running.size < this.pace.concurrency) {
        const page = this.queue.shift()!;
        const task: Promise<void> = this.visit(page)
          .catch((err) => {
            failure ??= err;
          })
          .finally(() => {
            running.delete(task);
            this.wake?.();
          });
        running.add(task);
      }
      if (running.size === 0 && this.queue.length === 0) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
    if (failure) throw failure;
  }

  /** Waits for this crawl's next request slot (the delay between two requests to the site). */
  private async turn(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + this.delayMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  private async visit(page: StoredPage): Promise<void> {
    // Stop as soon as the source is deleted or a newer crawl took over.
    const current = await this.sources.find(this.source.projectId, this.source._id);
    if (!current || current.runId !== this.source.runId) throw new CrawlSuperseded();
    await this.turn();
    const response = await this.guard
      .fetch(page.url, {
        maxBytes: CRAWL_MAX_BYTES,
        timeoutMs: CRAWL_TIMEOUT_MS,
        sameOriginRedirects: true,
        headers: { 'user-agent': this.userAgent(), accept: ACCEPT },
      })
      .catch((err: unknown) => err as Error);
    if (response instanceof OutboundRefusedError) {
      return this.settle(page, { status: 'skipped', error: response.message, dropDocument: true });
    }
    if (response instanceof OutboundFetchError) return this.settle(page, { status: 'failed', error: response.message });
    if (response instanceof Error) throw response;
    if (response.status === 404 || response.status === 410) {
      return this.settle(page, { status: 'failed', error: `gone (HTTP ${response.status})`, dropDocument: true });
    }
    if (response.status < 200 || response.status >= 300) {
      return this.settle(page, { status: 'failed', error: `HTTP ${response.status}` });
    }
    const finalUrl = normalizeUrl(response.url);
    if (finalUrl && finalUrl !== page.url) {
      await this.found(finalUrl);
      return this.settle(page, { status: 'skipped', error: `redirects to ${finalUrl}`, dropDocument: true });
    }
    const kind = contentKind(firstHeader(response.headers['content-type']), response.body, page.url);
    if (!kind) return this.settle(page, { status: 'skipped', error: 'not a page, PDF or DOCX file', dropDocument: true });
    let extracted: ExtractedPage;
    try {
      extracted = await extractContent(kind, response.body, page.url);
    } catch (err) {
      if (err instanceof UnreadableContentError) return this.settle(page, { status: 'failed', error: err.message, dropDocument: true });
      throw err;
    }
    if (this.source.type === 'website') for (const link of extracted.links) await this.found(link);
    if (extracted.canonical && extracted.canonical !== page.url && this.scope.sameOrigin(extracted.canonical)) {
      await this.found(extracted.canonical);
      return this.settle(page, { status: 'skipped', error: `its canonical URL is ${extracted.canonical}`, dropDocument: true });
    }
    if (extracted.noindex) return this.settle(page, { status: 'skipped', error: 'marked noindex', dropDocument: true });
    if (!extracted.text.trim()) return this.settle(page, { status: 'skipped', error: 'no text content', dropDocument: true });
    await this.index(page, extracted);
  }

  /** Writes the page's document when its content changed (or it has none); same content is left alone. */
  private async index(page: StoredPage, extracted: ExtractedPage): Promise<void> {
    const title = (extracted.title || page.url).slice(0, MAX_TITLE);
    const content = extracted.text.slice(0, MAX_CONTENT);
    const contentHash = createHash('sha256').update(`${title}\n${content}`).digest('hex');
    const { projectId } = this.source;
    if (page.documentId && page.contentHash === contentHash && (await this.documentExists(page.documentId))) {
      return this.settle(page, { status: 'unchanged', title });
    }
    let documentId = page.documentId;
    if (documentId) {
      const id = documentId;
      const updated = await this.documents.update(projectId, id, { title, content, url: page.url }).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'DOCUMENT_NOT_FOUND') return null;
        throw err;
      });
      // Deleted meanwhile, or never made (the process died between recording the id and creating it).
      if (!updated) await this.documents.create(projectId, { title, url: page.url, content }, id);
    } else {
      // The id is recorded before the document is made: a crawl resumed after a crash updates it, never makes a second one.
      documentId = randomUUID();
      page.documentId = documentId;
      page.contentHash = null;
      await this.pages.save(page);
      await this.documents.create(projectId, { title, url: page.url, content }, documentId);
    }
    await this.settle(page, { status: 'indexed', title, documentId, contentHash });
    // Deleted while the document was written: the source's deletion did not see this document.
    if (!(await this.sources.find(projectId, this.source._id))) {
      await this.documents.delete(projectId, documentId).catch(() => undefined);
      throw new CrawlSuperseded();
    }
  }

  private async documentExists(documentId: string): Promise<boolean> {
    return this.documents.get(this.source.projectId, documentId).then(
      () => true,
      () => false,
    );
  }

  private async settle(
    page: StoredPage,
    outcome: {
      status: StoredPage['status'];
      error?: string;
      title?: string;
      documentId?: string;
      contentHash?: string;
      dropDocument?: boolean;
    },
  ): Promise<void> {
    if (outcome.dropDocument && page.documentId) {
      await this.dropDocument(page.documentId);
      page.documentId = null;
      page.contentHash = null;
    }
    page.status = outcome.status;
    page.error = outcome.error ?? null;
    if (outcome.title !== undefined) page.title = outcome.title;
    if (outcome.documentId !== undefined) page.documentId = outcome.documentId;
    if (outcome.contentHash !== undefined) page.contentHash = outcome.contentHash;
    page.fetchedAt = this.now();
    await this.pages.save(page);
  }

  private async dropDocument(documentId: string): Promise<void> {
    await this.documents.delete(this.source.projectId, documentId).catch((err: unknown) => {
      if (!(err instanceof AppError && err.code === 'DOCUMENT_NOT_FOUND')) throw err;
    });
  }

  /** Pages an earlier crawl found that this one did not (no longer linked or listed) lose their documents. */
  private async dropPagesNotFound(): Promise<void> {
    for (const page of await this.pages.notInRun(this.source._id, this.source.runId)) {
      if (page.documentId) await this.dropDocument(page.documentId);
      await this.pages.deleteOne(page);
    }
    logger.debug({ sourceId: this.source._id, pages: this.known.size }, 'crawl finished');
  }
}

const firstHeader = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
