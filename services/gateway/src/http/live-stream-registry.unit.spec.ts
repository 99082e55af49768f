import { randomUUID } from 'node:crypto';
import { AppError } from '@palaver/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LiveCredential, LiveStreamRegistry } from './live-stream-registry';

const projectId = randomUUID();
const keyId = randomUUID();

const session = (token = `st_${randomUUID()}`, key = keyId): LiveCredential => ({
  kind: 'session',
  token,
  session: { projectId, visitorId: randomUUID(), keyId: key, assistantId: null },
});
const agent = (agentId = randomUUID()): LiveCredential => ({ kind: 'agent', agent: { agentId, projectId, name: 'Ada', image: null } });

const refusal = (open: () => unknown): AppError => {
  try {
    open();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the stream to be refused');
};

/** Identity's answers to "how long has this session left", in order; UNAUTHORIZED once they run out. */
const expiries = (...answers: Array<number | Error>) => {
  const asked: string[] = [];
  const ask = vi.fn(async (token: string) => {
    asked.push(token);
    const answer = answers.shift() ?? new AppError('UNAUTHORIZED', 'session token is invalid or has expired');
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { ask, asked };
};

const registry = (sessionExpiresInMs = expiries(60_000).ask) => new LiveStreamRegistry({ perSession: 2, perAgent: 3, sessionExpiresInMs });

describe('LiveStreamRegistry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('caps the streams of one session and of one agent, each slot freed once by its release', () => {
    const live = registry();
    const visitor = session();
    const first = live.open(visitor);
    live.open(visitor);
    const refused = refusal(() => live.open(visitor));
    expect(refused.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.details).toEqual({ retryAfter: 5, limit: 'liveStreamsPerSession', max: 2 });
    live.open(session()); // another session has slots of its own

    first.release();
    first.release(); // a second release frees nothing more
    live.open(visitor);
    expect(refusal(() => live.open(visitor)).code).toBe('RATE_LIMIT_EXCEEDED');

    const ada = agent();
    for (let i = 0; i < 3; i++) live.open(ada);
    expect(refusal(() => live.open(ada)).details).toMatchObject({ limit: 'liveStreamsPerAgent', max: 3 });
    expect(live.size).toBe(6);
  });

  it("ends every stream of a revoked key's sessions at once, and refuses that key's sessions after", () => {
    const live = registry();
    const revokedKey = [live.open(session()), live.open(session())];
    const otherKey = live.open(session(undefined, randomUUID()));
    const feed = live.open(agent());

    live.apply({ kind: 'key-revoked', projectId, keyId });
    for (const stream of revokedKey) {
      expect(stream.signal.aborted).toBe(true);
      expect(stream.signal.reason).toMatchObject({ code: 'UNAUTHORIZED' });
      stream.release(); // the stream then ends: nothing left to free
    }
    expect([otherKey.signal.aborted, feed.signal.aborted]).toEqual([false, false]);
    expect(live.size).toBe(2);
    // A request authenticated just before the revocation reached this instance.
    expect(refusal(() => live.open(session())).code).toBe('UNAUTHORIZED');
  });

  it("ends a revoked agent's feeds only", () => {
    const live = registry();
    const ada = agent();
    const feeds = [live.open(ada), live.open(ada)];
    const grace = live.open(agent());
    live.apply({ kind: 'agent-revoked', projectId, agentId: ada.kind === 'agent' ? ada.agent.agentId : '' });
    expect(feeds.map((f) => f.signal.aborted)).toEqual([true, true]);
    expect(grace.signal.aborted).toBe(false);
    expect(refusal(() => live.open(ada)).code).toBe('UNAUTHORIZED');
    live.apply({ kind: 'project-changed', projectId }); // ends nothing
    expect(grace.signal.aborted).toBe(false);
  });

  it("ends a session's streams when it lapses, checking again when it was extended meanwhile", async () => {
    // 10 s left at open; at that check it has been used (30 s left); then identity says it lapsed.
    const { ask, asked } = expiries(10_000, 30_000);
    const live = registry(ask);
    const visitor = session();
    const streams = [live.open(visitor), live.open(visitor)];
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toHaveLength(1); // one check per session, not per stream

    await vi.advanceTimersByTimeAsync(9_999);
    expect(asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toHaveLength(2);
    expect(streams.some((s) => s.signal.aborted)).toBe(false);

    await vi.advanceTimersByTimeAsync(29_999);
    expect(streams.some((s) => s.signal.aborted)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toHaveLength(3);
    expect(streams.map((s) => s.signal.aborted)).toEqual([true, true]);
    expect(streams[0]!.signal.reason).toMatchObject({ code: 'UNAUTHORIZED', message: 'this session has expired' });
    expect(live.size).toBe(0);
  });

  it('keeps the stream while identity cannot answer, and asks again shortly', async () => {
    const { ask, asked } = expiries(new AppError('SERVICE_UNAVAILABLE', 'identity is down'), 1_000);
    const live = registry(ask);
    const stream = live.open(session());
    await vi.advanceTimersByTimeAsync(4_999);
    expect(asked).toHaveLength(1);
    expect(stream.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stream.signal.aborted).toBe(true);
  });

  it('stops checking a session once its last stream is released', async () => {
    const { ask, asked } = expiries(1_000, 1_000, 1_000);
    const live = registry(ask);
    const stream = live.open(session());
    await vi.advanceTimersByTimeAsync(0);
    stream.release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends everything when the gateway closes', () => {
    const live = registry();
    const streams = [live.open(session()), live.open(agent())];
    live.closeAll();
    expect(streams.map((s) => s.signal.aborted)).toEqual([true, true]);
    expect(live.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
