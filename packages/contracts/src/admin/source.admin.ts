import { z } from 'zod';
import { MAX_URL, Timestamp, Uuid } from '../common';

/** A website crawl takes at most this many pages (and 200 unless told). */
export const SOURCE_MAX_PAGES = 5_000;
export const SOURCE_DEFAULT_MAX_PAGES = 200;
const MAX_GLOBS = 50;
const Glob = z.string().min(1).max(500);
const HttpUrl = z
  .url()
  .max(MAX_URL)
  .refine((url) => /^https?:\/\//i.test(url), { message: 'must be an http or https URL' });

/** Re-crawled every this many hours; null: only when asked (POST …/sync). */
const RefreshIntervalHours = z
  .number()
  .int()
  .min(1)
  .max(24 * 365)
  .nullable();

/** How a source is crawled: the settings that can change; the URL and type cannot (make a new source). */
const crawlSettings = {
  maxPages: z.number().int().min(1).max(SOURCE_MAX_PAGES).optional(),
  /** Only URLs (path and query) matching one of these globs are crawled, e.g. "/docs/**". */
  include: z.array(Glob).max(MAX_GLOBS).optional(),
  /** URLs matching one of these are never crawled. */
  exclude: z.array(Glob).max(MAX_GLOBS).optional(),
  refreshIntervalHours: RefreshIntervalHours.optional(),
};

export const WebsiteSourceBody = z.object({ type: z.literal('website'), url: HttpUrl, ...crawlSettings });
export const SitemapSourceBody = z.object({ type: z.literal('sitemap'), url: HttpUrl, ...crawlSettings });
export const SourceBody = z.discriminatedUnion('type', [WebsiteSourceBody, SitemapSourceBody]);
export type SourceBody = z.infer<typeof SourceBody>;

export const UpdateSourceBody = z.object(crawlSettings);
export type UpdateSourceBody = z.infer<typeof UpdateSourceBody>;

export const SourceStatus = z.enum(['queued', 'crawling', 'ready', 'failed']);
export type SourceStatus = z.infer<typeof SourceStatus>;

/** The pages of the latest (or current) crawl, by outcome; they change while it crawls. */
export const SourcePageCounts = z.object({
  found: z.number().int(),
  indexed: z.number().int(),
  unchanged: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});
export type SourcePageCounts = z.infer<typeof SourcePageCounts>;

export const Source = z.object({
  object: z.literal('source'),
  id: Uuid,
  projectId: Uuid,
  type: z.enum(['website', 'sitemap']),
  url: z.string(),
  maxPages: z.number().int(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  refreshIntervalHours: z.number().int().nullable(),
  status: SourceStatus,
  pages: SourcePageCounts,
  lastSyncAt: Timestamp.nullable(),
  nextSyncAt: Timestamp.nullable(),
  /** Why the latest crawl failed as a whole (null otherwise; each page has its own error). */
  error: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Source = z.infer<typeof Source>;

/** `pending`: found, not fetched yet in the current crawl. */
export const SourcePageStatus = z.enum(['pending', 'indexed', 'unchanged', 'failed', 'skipped']);
export type SourcePageStatus = z.infer<typeof SourcePageStatus>;

export const SourcePage = z.object({
  url: z.string(),
  title: z.string().nullable(),
  status: SourcePageStatus,
  error: z.string().nullable(),
  /** The document made from the page (its `url` is the page's, for citations). */
  documentId: Uuid.nullable(),
  contentHash: z.string().nullable(),
  fetchedAt: Timestamp.nullable(),
});
export type SourcePage = z.infer<typeof SourcePage>;

/** A crawl of a source: the search service's job on the `crawl` queue. */
export const CRAWL_QUEUE = 'crawl';
export const CRAWL_SOURCE_JOB = 'crawl-source';
export const CrawlSourceJob = z.object({ projectId: Uuid, sourceId: Uuid, runId: Uuid });
export type CrawlSourceJob = z.infer<typeof CrawlSourceJob>;

/** An uploaded PDF or DOCX file is at most this large. */
export const UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

/** A file uploaded to become a document (the gateway reads the multipart form, search extracts the text). */
export const UploadDocumentBody = z.object({
  filename: z.string().min(1).max(255),
  contentType: z.string().max(200),
  /** The file's bytes, base64. */
  data: z.base64().max(Math.ceil(UPLOAD_MAX_BYTES / 3) * 4),
  title: z.string().min(1).max(500).optional(),
  /** Cited as the document's URL; `file:///<filename>` when absent. */
  url: z.url().max(MAX_URL).optional(),
});
export type UploadDocumentBody = z.infer<typeof UploadDocumentBody>;
