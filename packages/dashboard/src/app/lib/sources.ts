import type { Source } from './types';

/** A source whose crawl has not ended: its page polls it. */
export const isCrawling = (source: Pick<Source, 'status'>): boolean => source.status === 'queued' || source.status === 'crawling';

/** Pages of the current crawl with an outcome (the rest are still pending). */
export const pagesDone = ({ pages }: Pick<Source, 'pages'>): number => pages.indexed + pages.unchanged + pages.failed + pages.skipped;

/** One glob per line, blank lines dropped. */
export const globLines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export const refreshLabel = (hours: number | null): string => {
  if (hours === null) return 'Manual';
  if (hours === 24) return 'Every day';
  if (hours === 168) return 'Every week';
  return hours % 24 === 0 ? `Every ${hours / 24} days` : `Every ${hours} h`;
};
