import { describe, expect, it, vi } from 'vitest';
import { CoalescedSync } from './coalesced-sync';

describe('CoalescedSync', () => {
  it('runs one sync for the calls of a window, and a new one for a call made while it runs', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    let syncs = 0;
    const coalesced = new CoalescedSync(async () => {
      syncs += 1;
      events.push(`sync ${syncs} started`);
      if (syncs === 1) await new Promise<void>((resolve) => (release = resolve));
      events.push(`sync ${syncs} done`);
    }, 10);
    const first = coalesced.synced().then(() => events.push('first'));
    const second = coalesced.synced().then(() => events.push('second'));
    // Once the window has passed, one sync runs for both calls and holds them.
    await vi.waitFor(() => expect(events).toContain('sync 1 started'));
    expect(events).toEqual(['sync 1 started']);
    // Made while the first sync runs: its writes may have missed it.
    const third = coalesced.synced().then(() => events.push('third'));
    release();
    await Promise.all([first, second, third]);
    expect(events).toEqual(['sync 1 started', 'sync 1 done', 'first', 'second', 'sync 2 started', 'sync 2 done', 'third']);
  });

  it('rejects the callers of a failed sync; the next round tries again', async () => {
    let fail = true;
    const coalesced = new CoalescedSync(async () => {
      if (fail) throw new Error('disk gone');
    }, 1);
    await expect(Promise.all([coalesced.synced(), coalesced.synced()])).rejects.toThrow('disk gone');
    fail = false;
    await expect(coalesced.synced()).resolves.toBeUndefined();
  });
});
