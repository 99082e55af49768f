import { convert } from 'html-to-text';

const TEXT_OPTIONS = {
  wordwrap: false as const,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'nav', format: 'skip' },
    { selector: 'table', format: 'dataTable' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
};

/** The readable text of an HTML page (scripts, styles, images, navigation and link targets dropped). */
export const htmlToText = (html: string): string => convert(html, TEXT_OPTIONS);

const firstElementText = (html: string, tag: string): string | null => {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(html);
  if (!match?.[1]) return null;
  const text = convert(match[1], TEXT_OPTIONS).replace(/\s+/g, ' ').trim();
  return text || null;
};

/** The page's first `<h1>`, else its `<title>`. */
export const htmlTitle = (html: string): string | null => firstElementText(html, 'h1') ?? firstElementText(html, 'title');
