import { parseHTML } from 'linkedom';
import mammoth from 'mammoth';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { type ExtractedPage, extractHtml, htmlText } from './html-extract';

export type ContentKind = 'html' | 'pdf' | 'docx' | 'text';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The kind of a fetched body, from its media type, else its first bytes, else its URL's extension. */
export const contentKind = (contentType: string | undefined, body: Uint8Array, url: string): ContentKind | null => {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf') return 'pdf';
  if (type === DOCX_TYPE) return 'docx';
  if (type === 'text/plain' || type === 'text/markdown') return 'text';
  const head = Buffer.from(body.subarray(0, 8)).toString('latin1');
  if (head.startsWith('%PDF-')) return 'pdf';
  const path = (() => {
    try {
      return new URL(url).pathname.toLowerCase();
    } catch {
      return '';
    }
  })();
  if (head.startsWith('PK\x03\x04') && path.endsWith('.docx')) return 'docx';
  if (type === '' || type === 'application/octet-stream') {
    if (path.endsWith('.pdf')) return 'pdf';
    if (path.endsWith('.docx')) return 'docx';
    if (/^\s*</.test(Buffer.from(body.subarray(0, 256)).toString('utf8'))) return 'html';
  }
  return null;
};

/** A file that cannot be read (corrupt, encrypted, not what it says it is). */
export class UnreadableContentError extends Error {
  constructor(kind: ContentKind, cause: unknown) {
    super(`unreadable ${kind}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'UnreadableContentError';
  }
}

const fileTitle = (url: string): string => {
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return (
      name
        .replace(/\.[a-z0-9]+$/i, '')
        .replace(/[-_]+/g, ' ')
        .trim() || url
    );
  } catch {
    return url;
  }
};

const plain = (title: string, text: string): ExtractedPage => ({
  title,
  text,
  links: [],
  canonical: null,
  noindex: false,
  nofollow: false,
});

/** The text of a PDF, page after page. */
export const extractPdf = async (body: Uint8Array, url: string): Promise<ExtractedPage> => {
  try {
    // unpdf takes the buffer over: give it a copy.
    const pdf = await getDocumentProxy(new Uint8Array(body));
    const [{ text }, meta] = await Promise.all([
      extractText(pdf, { mergePages: false }),
      getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> })),
    ]);
    const title = typeof meta.info.Title === 'string' && meta.info.Title.trim() ? meta.info.Title.trim() : fileTitle(url);
    return plain(
      title,
      (text as string[])
        .map((page) => page.trim())
        .filter(Boolean)
        .join('\n\n'),
    );
  } catch (err) {
    throw new UnreadableContentError('pdf', err);
  }
};

/** The text of a Word (DOCX) file, its headings kept. */
export const extractDocx = async (body: Uint8Array, url: string): Promise<ExtractedPage> => {
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(body) }));
  } catch (err) {
    throw new UnreadableContentError('docx', err);
  }
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  const heading = document.querySelector('h1, h2, h3')?.textContent?.trim();
  return plain(heading || fileTitle(url), htmlText(document.body as never));
};

/** The title and text of a fetched or uploaded body; null for a kind that is not read. */
export const extractContent = async (kind: ContentKind, body: Uint8Array, url: string): Promise<ExtractedPage> => {
  switch (kind) {
    case 'html':
      return extractHtml(Buffer.from(body).toString('utf8'), url);
    case 'pdf':
      return extractPdf(body, url);
    case 'docx':
      return extractDocx(body, url);
    case 'text':
      return plain(fileTitle(url), Buffer.from(body).toString('utf8').trim());
  }
};
