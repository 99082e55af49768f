/** The URLs a sitemap lists, and the sitemaps a sitemap index names. */
export interface ParsedSitemap {
  urls: string[];
  sitemaps: string[];
}

const decode = (text: string): string =>
  text
    .replace(/^<!\[CDATA\[|\]\]>$/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** Reads `<loc>` entries of a sitemap (urlset) or a sitemap index; anything else lists nothing. */
export const parseSitemap = (xml: string): ParsedSitemap => {
  const locs = [...xml.matchAll(/<(?:[a-z0-9]+:)?loc>\s*([\s\S]*?)\s*<\/(?:[a-z0-9]+:)?loc>/gi)].map((m) => decode(m[1]!));
  const isIndex = /<(?:[a-z0-9]+:)?sitemapindex[\s>]/i.test(xml);
  return isIndex ? { urls: [], sitemaps: locs } : { urls: locs, sitemaps: [] };
};
