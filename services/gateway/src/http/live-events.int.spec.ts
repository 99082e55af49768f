import { AppError } from '@palaver/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LiveEvent, serveLiveEvents } from './live-events';

/** How often the stream asks unwoken. */
const FALLBACK_MS = 60_000;

/**
 * A live stream over `feed` (its index is the cursor), woken by `notify` and never polled in
 * between; it answers at most `page` events per ask.
 */
const start = async (page = 100, until?: AbortSignal) => {
  const feed: LiveEvent[] = [];
  const listeners = new Set<() => void>();
  let asked = 0;
  /** While set, an ask waits for it before it reads the feed. */
  const hold: { until: Promise<void> | null } = { until: null };
  const app = Fastify({ forceCloseConnections: true });
  app.get('/events', async (_request, reply) => {
    await serveLiveEvents(
      reply,
      0,
      async (cursor) => {
        asked += 1;
        if (hold.until) await hold.until;
        const events = feed.slice(cursor, cursor + page);
        return { events, cursor: cursor + events.length, more: cursor + events.length < feed.length };
      },
      {
        wake: (notify) => {
          listeners.add(notify);
          return () => listeners.delete(notify);
        },
        fallbackMs: FALLBACK_MS,
        until,
      },
    );
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const push = (id: string) => {
    feed.push({ id, type: 'news', data: { id } });
    for (const notify of listeners) notify();
  };
  return { app, url, push, listeners, hold, asked: () => asked };
};

/** Reads the stream's text until it contains `text` (a read that never comes is bounded by the test's timeout). */
const readUntil = async (reader: ReadableStreamDefaultReader<Uint8Array>, text: string, seen = { text: '' }) => {
  const decoder = new TextDecoder();
  while (!seen.text.includes(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended');
    seen.text += decoder.decode(value, { stream: true });
  }
  return seen;
};

const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

let app: FastifyInstance | null = null;
afterEach(async () => {
  vi.useRealTimers();
  await app?.close();
  app = null;
});

describe('serveLiveEvents with a wake-up', () => {
  it('asks only when woken, and writes what changed at once', async () => {
    const served = await start();
    app = served.app;
    // The stream's pause is a timer: on a fake clock the whole fallback minute passes at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const response = await fetch(`${served.url}/events`, { signal: controller.signal });
    const reader = response.body!.getReader();
    const seen = await readUntil(reader, ': live');
    await vi.advanceTimersByTimeAsync(FALLBACK_MS - 1);
    expect(served.asked()).toBe(1); // the first ask only: idle, it polls nothing until the fallback

    served.push('1');
    await readUntil(reader, 'id: 1\nevent: news', seen);
    served.push('2');
    served.push('3');
    await readUntil(reader, 'id: 3\n', seen);
    expect(seen.text).toContain('id: 2\n');
    expect(served.asked()).toBeLessThanOrEqual(4);

    controller.abort();
    await until(() => expect(served.listeners.size).toBe(0));
  });

  it('asks again at once while a full page leaves more after it', async () => {
    const served = await start(2);
    app = served.app;
    for (const id of ['1', '2', '3', '4', '5']) served.push(id);
    const controller = new AbortController();
    const response = await fetch(`${served.url}/events`, { signal: controller.signal });
    const seen = await readUntil(response.body!.getReader(), 'id: 5\n');
    expect(seen.text.match(/^id: /gm)).toHaveLength(5);
    expect(served.asked()).toBe(3);
    controller.abort();
  });

  it('ends at once when told to (a revoked credential), writing nothing more, not even the page being fetched', async () => {
    const credential = new AbortController();
    const served = await start(100, credential.signal);
    app = served.app;
    const response = await fetch(`${served.url}/events`);
    const reader = response.body!.getReader();
    const seen = await readUntil(reader, ': live');
    const answered: Array<() => void> = [];
    served.hold.until = new Promise<void>((resolve) => answered.push(resolve));
    const answer = () => answered[0]!();
    served.push('1');
    await until(() => expect(served.asked()).toBe(2)); // the ask woken by the push waits on the feed

    credential.abort(new AppError('UNAUTHORIZED', 'this agent token has been revoked'));
    answer();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen.text += decoder.decode(value, { stream: true });
    }
    expect(seen.text).toContain(': closed: this agent token has been revoked\n\n');
    expect(seen.text).not.toContain('id: 1');
    await until(() => expect(served.listeners.size).toBe(0));
  });
});
