import type { TokenChunk } from '@palaver/contracts';
import { InProcessPubSub } from '@palaver/platform';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReplyHub } from './reply-hub';
import { STARTED_REPLY } from './reply-listener';

const finish: TokenChunk = {
  type: 'finish',
  text: 'done',
  finishReason: 'stop',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 0, cachedInputTokens: 0 },
};

const startHub = async (pubsub: InProcessPubSub): Promise<ReplyHub> => {
  const hub = new ReplyHub();
  await hub.start(pubsub);
  return hub;
};

/** A test with a started hub on a pub/sub of its own, both stopped after, whatever the outcome. */
const itWithHub = (name: string, test: (hub: ReplyHub, pubsub: InProcessPubSub) => Promise<void>): void => {
  it(name, async () => {
    const pubsub = new InProcessPubSub();
    const hub = await startHub(pubsub);
    try {
      await test(hub, pubsub);
    } finally {
      await hub.stop();
      await pubsub.close();
    }
  });
};

/**
 * Recording a failure takes RECORDING_MS of fake time (the timers of these tests are fake), so a
 * listener that told the visitor without waiting for it would have told them before 'recorded'.
 */
const RECORDING_MS = 20;
const slowRecording = () => new Promise((resolve) => setTimeout(resolve, RECORDING_MS));

/** The chunks of `listener`, with 'told' added to `order` when the error comes. */
const collectTelling = async (chunks: AsyncIterable<TokenChunk>, order: string[]): Promise<TokenChunk[]> => {
  const all: TokenChunk[] = [];
  for await (const chunk of chunks) {
    all.push(chunk);
    if (chunk.type === 'error') order.push('told');
  }
  return all;
};

const collect = async (chunks: AsyncIterable<TokenChunk>): Promise<TokenChunk[]> => {
  const all: TokenChunk[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
};

describe('ReplyListener', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  itWithHub('on silence, records the failure (with the text sent so far) before it yields the timeout error', async (hub, pubsub) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const order: string[] = [];
    let recordedText: string | null = null;
    const listener = hub.listen('reply-1', 50, async (partialText) => {
      await slowRecording();
      recordedText = partialText;
      order.push('recorded');
    });
    await pubsub.publish(hub.channel, { replyId: 'reply-1', chunk: { type: 'delta', delta: 'Hello ' } });
    await pubsub.publish(hub.channel, { replyId: 'reply-1', chunk: { type: 'delta', delta: 'there' } });
    const collected = collectTelling(listener.chunks(), order);
    await vi.advanceTimersByTimeAsync(50 + RECORDING_MS);
    const chunks = await collected;
    expect(chunks.at(-1)).toMatchObject({ type: 'error', error: 'the reply timed out' });
    expect(order).toEqual(['recorded', 'told']);
    expect(recordedText).toBe('Hello there');
  });

  itWithHub(
    'when the worker died (an interrupted error), records the failure with the text relayed before it passes the error on',
    async (hub, pubsub) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const order: string[] = [];
      const recorded: [string, string][] = [];
      const listener = hub.listen('reply-3', 60_000, async (partialText, reason) => {
        await slowRecording();
        recorded.push([partialText, reason]);
        order.push('recorded');
      });
      for (const delta of ['alpha ', 'beta ', 'gamma ']) {
        await pubsub.publish(hub.channel, { replyId: 'reply-3', chunk: { type: 'delta', delta } });
      }
      const interrupted = {
        type: 'error',
        code: 'SERVICE_UNAVAILABLE',
        error: 'the reply was interrupted: its worker stopped',
        interrupted: true,
      };
      await pubsub.publish(hub.channel, { replyId: 'reply-3', chunk: interrupted });
      const collected = collectTelling(listener.chunks(), order);
      await vi.advanceTimersByTimeAsync(RECORDING_MS);
      const chunks = await collected;
      expect(recorded).toEqual([['alpha beta gamma ', 'interrupted']]);
      expect(order).toEqual(['recorded', 'told']);
      // The mark is for the listener: the visitor gets the plain error.
      expect(chunks.at(-1)).toEqual({ type: 'error', code: 'SERVICE_UNAVAILABLE', error: 'the reply was interrupted: its worker stopped' });
    },
  );

  itWithHub('passes an error without the mark on as it is: the worker recorded that failure itself', async (hub, pubsub) => {
    let recorded = false;
    const listener = hub.listen('reply-4', 60_000, async () => {
      recorded = true;
    });
    await pubsub.publish(hub.channel, { replyId: 'reply-4', chunk: { type: 'error', code: 'BAD_GATEWAY', error: 'model failed' } });
    const chunks = await collect(listener.chunks());
    expect(chunks).toEqual([{ type: 'error', code: 'BAD_GATEWAY', error: 'model failed' }]);
    expect(recorded).toBe(false);
  });

  itWithHub('still tells the visitor when recording the failure fails', async (hub) => {
    const listener = hub.listen('reply-2', 30, async () => {
      throw new Error('conversation unavailable');
    });
    const chunks = await collect(listener.chunks());
    expect(chunks).toEqual([{ type: 'error', code: 'SERVICE_UNAVAILABLE', error: 'the reply timed out' }]);
  });
});

describe('ReplyListener.startedOrAnswered', () => {
  const pending = <T>() => {
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  itWithHub(
    'settles as started on the first fragment, before the answer; a failing answer then leaves the reply streaming',
    async (hub, pubsub) => {
      const listener = hub.listen('r1', 1_000);
      const answer = pending<{ kind: 'queued' }>();
      const outcome = listener.startedOrAnswered(() => answer.promise);
      await pubsub.publish(hub.channel, { replyId: 'r1', chunk: { type: 'delta', delta: 'Hi' } });
      expect(await outcome).toBe(STARTED_REPLY);
      answer.reject(new Error('the answer timed out'));
      await pubsub.publish(hub.channel, { replyId: 'r1', chunk: finish });
      const chunks = await collect(listener.chunks());
      expect(chunks).toEqual([{ type: 'delta', delta: 'Hi' }, finish]);
    },
  );

  itWithHub('settles with the answer when it comes first, and closes the listener when the start fails', async (hub) => {
    const queued = hub.listen('r2', 1_000);
    expect(await queued.startedOrAnswered(async () => ({ kind: 'queued' as const }))).toEqual({ kind: 'queued' });
    await queued.close();
    const failing = hub.listen('r3', 1_000);
    await expect(failing.startedOrAnswered(() => Promise.reject(new Error('not found')))).rejects.toThrow('not found');
    expect(hub.listening).toBe(0);
  });
});

describe('ReplyHub', () => {
  const delta = (delta: string): TokenChunk => ({ type: 'delta', delta });

  itWithHub('routes the fragments of interleaved replies on its one channel to their own listeners', async (hub, pubsub) => {
    const a = hub.listen('a', 1_000);
    const b = hub.listen('b', 1_000);
    for (const [replyId, chunk] of [
      ['a', delta('A1')],
      ['b', delta('B1')],
      ['x', delta('nobody waits for this')],
      ['a', finish],
      ['b', delta('B2')],
      ['b', finish],
    ] as const) {
      await pubsub.publish(hub.channel, { replyId, chunk });
    }
    expect(await collect(a.chunks())).toEqual([delta('A1'), finish]);
    expect(await collect(b.chunks())).toEqual([delta('B1'), delta('B2'), finish]);
    expect(hub.listening).toBe(0);
  });

  itWithHub('ignores a malformed message and a fragment for a closed listener', async (hub, pubsub) => {
    const gone = hub.listen('gone', 1_000);
    await gone.close();
    const live = hub.listen('live', 1_000);
    await pubsub.publish(hub.channel, { type: 'delta', delta: 'no reply id' });
    await pubsub.publish(hub.channel, { replyId: 'gone', chunk: delta('late') });
    await pubsub.publish(hub.channel, { replyId: 'live', chunk: finish });
    expect(await collect(live.chunks())).toEqual([finish]);
    expect(hub.listening).toBe(0);
  });

  it('listens on a channel of its own: two gateways do not hear each other', async () => {
    const pubsub = new InProcessPubSub();
    const [one, two] = [await startHub(pubsub), await startHub(pubsub)];
    expect(one.channel).not.toBe(two.channel);
    const onTwo = two.listen('r', 40);
    await pubsub.publish(one.channel, { replyId: 'r', chunk: finish });
    expect(await collect(onTwo.chunks())).toEqual([{ type: 'error', code: 'SERVICE_UNAVAILABLE', error: 'the reply timed out' }]);
    await Promise.all([one.stop(), two.stop()]);
    await pubsub.close();
  });
});
