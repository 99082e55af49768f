import { describe, expect, it } from 'vitest';
import { CrawlScope, normalizeUrl } from './crawl-scope';
import { parseSitemap } from './sitemap';

describe('normalizeUrl', () => {
  it('resolves against a base, drops the fragment and the default port, refuses other schemes', () => {
    expect(normalizeUrl('b#top', 'https://acme.test/a/')).toBe('https://acme.test/a/b');
    expect(normalizeUrl('http://acme.test:80/x')).toBe('http://acme.test/x');
    expect(normalizeUrl('mailto:hi@acme.test')).toBeNull();
    expect(normalizeUrl('javascript:void(0)')).toBeNull();
    expect(normalizeUrl('http://[::1')).toBeNull();
  });
});

describe('CrawlScope', () => {
  it('keeps to the origin (scheme, host and port)', () => {
    const scope = new CrawlScope('https://acme.test', [], []);
    expect(scope.allows('https://acme.test/a')).toBe(true);
    expect(scope.allows('http://acme.test/a')).toBe(false);
    expect(scope.allows('https://www.acme.test/a')).toBe(false);
    expect(scope.allows('https://acme.test:8443/a')).toBe(false);
  });

  it('applies include and exclude globs to the path (and the path with its query)', () => {
    const scope = new CrawlScope('https://acme.test', ['/docs/**', '/faq'], ['/docs/drafts/**', '**/*.zip']);
    expect(scope.allows('https://acme.test/docs/install')).toBe(true);
    expect(scope.allows('https://acme.test/docs/a/b?lang=en')).toBe(true);
    expect(scope.allows('https://acme.test/faq')).toBe(true);
    expect(scope.allows('https://acme.test/blog/post')).toBe(false);
    expect(scope.allows('https://acme.test/docs/drafts/x')).toBe(false);
    expect(scope.allows('https://acme.test/docs/files/all.zip')).toBe(false);
  });
});

describe('parseSitemap', () => {
  it('reads the URLs of a urlset, entities and CDATA decoded', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc> https://acme.test/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod></url>
        <url><loc><![CDATA[https://acme.test/b]]></loc></url>
      </urlset>`;
    expect(parseSitemap(xml)).toEqual({ urls: ['https://acme.test/a?x=1&y=2', 'https://acme.test/b'], sitemaps: [] });
  });

  it('reads the sitemaps of a sitemap index', () => {
    const xml =
      '<sitemapindex><sitemap><loc>https://acme.test/s1.xml</loc></sitemap><sitemap><loc>https://acme.test/s2.xml</loc></sitemap></sitemapindex>';
    expect(parseSitemap(xml)).toEqual({ urls: [], sitemaps: ['https://acme.test/s1.xml', 'https://acme.test/s2.xml'] });
  });

  it('lists nothing for something that is not a sitemap', () => {
    expect(parseSitemap('<html><body>not found</body></html>')).toEqual({ urls: [], sitemaps: [] });
  });
});
