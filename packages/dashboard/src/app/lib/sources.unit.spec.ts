import { describe, expect, it } from 'vitest';
import { globLines, isCrawling, pagesDone, refreshLabel } from './sources';

describe('source helpers', () => {
  it('counts the pages with an outcome, not the pending ones', () => {
    expect(pagesDone({ pages: { found: 9, indexed: 3, unchanged: 2, failed: 1, skipped: 1 } })).toBe(7);
  });

  it('polls only a queued or crawling source', () => {
    expect(['queued', 'crawling', 'ready', 'failed'].map((status) => isCrawling({ status: status as never }))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('reads one glob a line, trimmed, blank lines dropped', () => {
    expect(globLines(' /docs/**\n\n  /blog/*  \n')).toEqual(['/docs/**', '/blog/*']);
  });

  it('names the refresh interval', () => {
    expect([null, 24, 168, 720, 6].map(refreshLabel)).toEqual(['Manual', 'Every day', 'Every week', 'Every 30 days', 'Every 6 h']);
  });
});
