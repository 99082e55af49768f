import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

export interface ExtractedPage {
  title: string;
  /** The main content as text, its headings as markdown `#` lines (for chunking and citations). */
  text: string;
  /** Absolute http(s) URLs the page links to, without fragments. */
  links: string[];
  /** The page's `<link rel=canonical>`, absolute, when it names one. */
  canonical: string | null;
  /** `<meta name=robots>` says noindex / nofollow. */
  noindex: boolean;
  nofollow: boolean;
}

/** Chrome around the content: dropped before the main content is looked for. */
const BOILERPLATE = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'svg',
  'canvas',
  'form',
  'button',
  'nav',
  'header',
  'footer',
  'aside',
  'dialog',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="dialog"]',
  '[aria-hidden="true"]',
  '[hidden]',
].join(',');

/** Cookie and consent banners, by the names sites and consent tools give them. */
const BANNER = /(^|[-_\s])(cookie|cookies|consent|gdpr|cmp|onetrust|cc-banner|cookiebar)([-_\s]|$)/i;

const BLOCKS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'LI',
  'UL',
  'OL',
  'TABLE',
  'TR',
  'BLOCKQUOTE',
  'PRE',
  'DL',
  'DT',
  'DD',
  'FIGURE',
  'FIGCAPTION',
  'ADDRESS',
]);

type Node = { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<Node> };

/** Text of an element tree: headings as `#` lines, blocks on their own lines, cells apart. */
export const htmlText = (root: Node): string => {
  const out: string[] = [];
  let line = '';
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) out.push(text);
    line = '';
  };
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      line += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== 1) return;
    const name = node.nodeName.toUpperCase();
    const heading = /^H([1-6])$/.exec(name);
    if (heading) {
      flush();
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text) out.push('', `${'#'.repeat(Number(heading[1]))} ${text}`, '');
      return;
    }
    if (name === 'BR') {
      flush();
      return;
    }
    const block = BLOCKS.has(name);
    if (block) flush();
    if (name === 'TD' || name === 'TH') line += ' ';
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) {
      flush();
      if (name === 'P' || name === 'PRE' || name === 'BLOCKQUOTE' || name === 'TABLE') out.push('');
    }
  };
  walk(root);
  flush();
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
};

const absolute = (href: string | null | undefined, base: string): string | null => {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
};

/**
 * The main content of an HTML page: navigation, header, footer, scripts and cookie banners are
 * dropped, then Readability picks the article (the cleaned body when it finds none). Links are
 * read before anything is dropped, since navigation is how the rest of the site is found.
 */
export const extractHtml = (html: string, pageUrl: string): ExtractedPage => {
  const { document } = parseHTML(html);
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  const base = absolute(baseHref, pageUrl) ?? pageUrl;
  const robots = (document.querySelector('meta[name="robots" i]')?.getAttribute('content') ?? '').toLowerCase();
  const nofollow = /\b(nofollow|none)\b/.test(robots);
  const links = nofollow
    ? []
    : [
        ...new Set(
          Array.from(document.querySelectorAll('a[href], area[href]'))
            .filter((a) => !/\bnofollow\b/i.test(a.getAttribute('rel') ?? ''))
            .map((a) => absolute(a.getAttribute('href'), base))
            .filter((u): u is string => u !== null),
        ),
      ];
  const canonical = absolute(document.querySelector('link[rel~="canonical" i]')?.getAttribute('href'), base);
  const title =
    (document.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim() ||
    (document.querySelector('h1')?.textContent ?? '').replace(/\s+/g, ' ').trim();

  for (const element of Array.from(document.querySelectorAll(BOILERPLATE))) element.remove();
  for (const element of Array.from(document.querySelectorAll('[id], [class]'))) {
    const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
    if (BANNER.test(names)) element.remove();
  }

  let text = '';
  try {
    const article = new Readability(document as unknown as Document, { charThreshold: 0, keepClasses: false }).parse();
    if (article?.content) text = htmlText(parseHTML(`<html><body>${article.content}</body></html>`).document.body as unknown as Node);
  } catch {
    // Readability gives up on some documents; the cleaned body is used instead.
  }
  if (!text) {
    // Readability consumes the document it parses: read the body again for the fallback.
    const again = parseHTML(html).document;
    for (const element of Array.from(again.querySelectorAll(BOILERPLATE))) element.remove();
    text = htmlText(again.body as unknown as Node);
  }
  return { title, text, links, canonical, noindex: /\b(noindex|none)\b/.test(robots), nofollow };
};
