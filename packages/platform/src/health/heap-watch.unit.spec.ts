import { describe, expect, it, vi } from 'vitest';
import { type HeapReading, watchHeap } from './heap-watch';

const MB = 2 ** 20;

/** A watch over readings given in turn (shares of a 1,000 MB limit), with its warnings kept. */
const watchOver = (shares: number[], intervalMs = 60_000) => {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  let next = 0;
  const read = (): HeapReading => ({ used: shares[Math.min(next++, shares.length - 1)]! * 1000 * MB, limit: 1000 * MB });
  const watch = watchHeap({ intervalMs, read, warn: (fields, message) => warnings.push({ fields, message }) });
  return { watch, warnings, readings: () => next };
};

describe('watchHeap', () => {
  it('warns once as the heap passes its share, with the figures and the way out', () => {
    const { watch, warnings } = watchOver([0.5, 0.69, 0.72, 0.9, 0.75]);
    for (let i = 0; i < 4; i++) watch.check();
    watch.stop();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.fields).toEqual({ heapUsedMb: 720, heapLimitMb: 1000 });
    expect(warnings[0]!.message).toMatch(/^the heap is 72 % full: .* Set MONGODB_URL and NATS_URL/);
  });

  it('warns again only after the heap had room again', () => {
    // 0.65 is below the share but within the margin: no new warning on the way back up.
    const { watch, warnings } = watchOver([0.8, 0.65, 0.8, 0.55, 0.71]);
    for (let i = 0; i < 4; i++) watch.check();
    watch.stop();
    expect(warnings.map((w) => w.fields.heapUsedMb)).toEqual([800, 710]);
  });

  it('reads at once, then on its interval until stopped', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { watch, warnings, readings } = watchOver([0.1, 0.1, 0.95], 10);
      expect(readings()).toBe(1);
      vi.advanceTimersByTime(20);
      expect(readings()).toBe(3);
      expect(warnings).toHaveLength(1);
      watch.stop();
      vi.advanceTimersByTime(1_000);
      expect(readings()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
