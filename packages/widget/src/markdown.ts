import { Marked } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** Only these links become anchors; anything else (javascript:, data:, relative) stays text. */
const SAFE_URL = /^(https?:\/\/|mailto:)/i;

const anchor = (href: string, label: string): string =>
  `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`;

/**
 * Markdown for model and agent text, with safe output: raw HTML in the text is shown as text,
 * never parsed; links open in a new tab and only for http(s) and mailto; images become links
 * (no requests to addresses chosen by model text).
 */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    link({ href, tokens }) {
      const label = this.parser.parseInline(tokens);
      return SAFE_URL.test(href) ? anchor(href, label) : label;
    },
    image({ href, text }) {
      return SAFE_URL.test(href) ? anchor(href, escapeHtml(text || href)) : escapeHtml(text);
    },
  },
});

export const renderMarkdown = (text: string): string => markdown.parse(text) as string;
