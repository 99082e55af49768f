import { describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../testing/office-files';
import { contentKind, extractContent, UnreadableContentError } from './document-extract';
import { extractHtml } from './html-extract';

const PAGE = `<!doctype html><html><head><title>Shipping | Acme</title>
<link rel="canonical" href="/shipping"></head><body>
<header><a href="/">Acme</a> <nav><a href="/returns">Returns</a> <a href="https://other.example/x">Partner</a></nav></header>
<div id="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
<main><h1>Shipping</h1><p>Orders ship within 3 business days from our Leeds warehouse.</p>
<h2>International</h2><p>International parcels are sent with tracked courier service.</p>
<p>See <a href="warranty#terms">the warranty</a>.</p></main>
<footer>Copyright Acme Footer Ltd. <a href="/privacy">Privacy</a></footer>
<script>var trackingSecret = 1;</script></body></html>`;

describe('extractHtml', () => {
  const page = extractHtml(PAGE, 'https://acme.test/shipping?ref=1');

  it('keeps the main content with its headings as markdown', () => {
    expect(page.title).toBe('Shipping | Acme');
    expect(page.text).toContain('Orders ship within 3 business days');
    expect(page.text).toMatch(/^#+ International$/m);
  });

  it('drops navigation, footer, scripts and cookie banners', () => {
    expect(page.text).not.toContain('Copyright');
    expect(page.text).not.toContain('cookies');
    expect(page.text).not.toContain('trackingSecret');
    expect(page.text).not.toContain('Returns');
  });

  it('reads links (navigation included) and the canonical URL, absolute and without fragments', () => {
    expect(page.links).toEqual(
      expect.arrayContaining([
        'https://acme.test/',
        'https://acme.test/returns',
        'https://other.example/x',
        'https://acme.test/warranty',
        'https://acme.test/privacy',
      ]),
    );
    expect(page.canonical).toBe('https://acme.test/shipping');
  });

  it('honours meta robots', () => {
    const page = extractHtml(
      '<html><head><meta name="robots" content="noindex, nofollow"></head><body><a href="/a">a</a><p>x</p></body></html>',
      'https://acme.test/',
    );
    expect(page).toMatchObject({ noindex: true, nofollow: true, links: [] });
  });
});

describe('extractContent', () => {
  it('reads the text of a PDF', async () => {
    const pdf = makePdf(['The warranty lasts 7 years.', 'Claims go to warranty desk.'], 'Warranty terms');
    expect(contentKind('application/pdf', pdf, 'https://acme.test/w.pdf')).toBe('pdf');
    expect(contentKind(undefined, pdf, 'https://acme.test/w')).toBe('pdf');
    const page = await extractContent('pdf', pdf, 'https://acme.test/w.pdf');
    expect(page.title).toBe('Warranty terms');
    expect(page.text).toContain('The warranty lasts 7 years.');
  });

  it('reads the text and headings of a DOCX file', async () => {
    const docx = await makeDocx(['# Returns policy', 'Returns are accepted for 45 days.', 'Bring the receipt.']);
    expect(contentKind('application/octet-stream', docx, 'https://acme.test/r.docx')).toBe('docx');
    const page = await extractContent('docx', docx, 'https://acme.test/r.docx');
    expect(page.title).toBe('Returns policy');
    expect(page.text).toMatch(/^# Returns policy$/m);
    expect(page.text).toContain('Returns are accepted for 45 days.');
  });

  it('refuses a corrupt PDF or DOCX with a clear error', async () => {
    await expect(extractContent('pdf', Buffer.from('%PDF-1.4 garbage'), 'https://acme.test/x.pdf')).rejects.toBeInstanceOf(
      UnreadableContentError,
    );
    await expect(extractContent('docx', Buffer.from('PK\x03\x04 not a zip'), 'https://acme.test/x.docx')).rejects.toThrow(
      /unreadable docx/,
    );
  });

  it('does not read kinds it does not know', () => {
    expect(contentKind('image/png', Buffer.from([0x89, 0x50]), 'https://acme.test/a.png')).toBeNull();
  });
});
