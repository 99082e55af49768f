import picomatch from 'picomatch';

/** The URL as crawled: no fragment, the origin's default port dropped (WHATWG URL does that). */
export const normalizeUrl = (raw: string, base?: string): string | null => {
  try {
    const url = new URL(raw, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
};

/**
 * Which URLs of the site a source crawls: the start URL's origin only, then the include globs
 * (any, when given) and the exclude globs (none), matched against the path and query.
 */
export class CrawlScope {
  private readonly include: ((path: string) => boolean) | null;
  private readonly exclude: ((path: string) => boolean) | null;

  constructor(
    readonly origin: string,
    include: readonly string[],
    exclude: readonly string[],
  ) {
    const options = { dot: true };
    this.include = include.length > 0 ? picomatch([...include], options) : null;
    this.exclude = exclude.length > 0 ? picomatch([...exclude], options) : null;
  }

  sameOrigin(url: string): boolean {
    try {
      return new URL(url).origin === this.origin;
    } catch {
      return false;
    }
  }

  /** Same origin, included and not excluded. */
  allows(url: string): boolean {
    if (!this.sameOrigin(url)) return false;
    const { pathname, search } = new URL(url);
    const paths = search ? [pathname, pathname + search] : [pathname];
    if (this.include && !paths.some((p) => this.include!(p))) return false;
    if (this.exclude && paths.some((p) => this.exclude!(p))) return false;
    return true;
  }
}
