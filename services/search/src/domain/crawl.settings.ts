/** The crawler names itself with the product and its version (robots.txt rules may name it). */
export const CRAWLER_NAME = 'PalaverBot';
export const CRAWLER_VERSION = '0.1.0';
export const CRAWLER_USER_AGENT = `Mozilla/5.0 (compatible; ${CRAWLER_NAME}/${CRAWLER_VERSION}; +self-hosted Palaver assistant)`;

/** A page, PDF or DOCX larger than this is not read. */
export const CRAWL_MAX_BYTES = 10 * 1024 * 1024;
export const CRAWL_TIMEOUT_MS = 20_000;
/** A sitemap or robots.txt larger than this is not read. */
export const CRAWL_MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
export const CRAWL_MAX_SITEMAPS = 50;
/** A robots.txt Crawl-delay is honoured up to this. */
export const CRAWL_MAX_DELAY_MS = 10_000;

export interface CrawlPace {
  /** Requests to the site at once. */
  concurrency: number;
  /** Least time between the starts of two requests to the site. */
  delayMs: number;
}
