import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Nearest-rank percentile (p from 0 to 1) of unsorted samples; NaN for none. */
export const percentile = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

export const timed = async <T>(run: () => T | Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
};

export const withTempDir = async <T>(task: (dir: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-bench-'));
  try {
    return await task(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** A plain-text table of `pnpm bench`. */
export interface Table {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  notes: string[];
}

/** The first column aligned left, the others right, two spaces apart. */
export const formatTable = (table: Table): string => {
  const cells = [table.columns, ...table.rows.map((r) => r.map(String))];
  const widths = table.columns.map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [
    table.title,
    line(table.columns),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
    ...table.notes.map((n) => `  ${n}`),
  ].join('\n');
};
