/**
 * The driving side of a floor's server (bus-floor.server.ts, stack-floor.server.ts), over the
 * bench's IPC: `run` sends `concurrency` messages at a time for `seconds` and answers how many
 * completed; `sequential` sends `count` messages one at a time and answers each one's ms from the
 * command to its first fragment; `close` closes the floor and exits. The floor sends a message's
 * command with `post`, hands each fragment that reaches its reply channel to `fragment`, and calls
 * `start` once that channel is subscribed.
 */
import { randomUUID } from 'node:crypto';

export interface FloorDriver {
  /** A fragment of a conversation's reply came back: `finish` ends its message. */
  fragment(conversationId: string, type: string): void;
  /** Takes the bench's commands and tells it the floor is ready (once its reply channel is subscribed). */
  start(): void;
}

export const driveFloor = (post: (conversationId: string) => Promise<unknown>, close: () => Promise<void>): FloorDriver => {
  const waiting = new Map<string, { delta(): void; finish(): void }>();

  /** Resolves with the ms from the command to the first fragment, once the finish has come. */
  const oneMessage = async (conversationId: string): Promise<number> => {
    const started = performance.now();
    let firstFragment = Number.NaN;
    const finished = new Promise<void>((finish) =>
      waiting.set(conversationId, { delta: () => (firstFragment = performance.now() - started), finish }),
    );
    await post(conversationId);
    await finished;
    return firstFragment;
  };

  const run = async (concurrency: number, seconds: number): Promise<number> => {
    const until = Date.now() + seconds * 1000;
    let completed = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const conversationId = randomUUID();
        while (Date.now() < until) {
          await oneMessage(conversationId);
          completed += 1;
        }
      }),
    );
    return completed;
  };

  /** One message at a time, as the bench's streaming client sends them: the ms to each first fragment. */
  const firstFragments = async (count: number): Promise<number[]> => {
    const conversationId = randomUUID();
    const took: number[] = [];
    for (let i = 0; i < count; i++) took.push(await oneMessage(conversationId));
    return took;
  };

  return {
    fragment(conversationId, type) {
      const waiter = waiting.get(conversationId);
      if (type === 'finish') waiter?.finish();
      else waiter?.delta();
    },
    start() {
      process.on('message', (message: { cmd: string; concurrency: number; seconds: number; count: number }) => {
        if (message.cmd === 'sequential') {
          void firstFragments(message.count).then((took) => process.send!({ cmd: 'sequential', took }));
        } else if (message.cmd === 'run') {
          void run(message.concurrency, message.seconds).then((completed) => process.send!({ cmd: 'ran', completed }));
        } else if (message.cmd === 'close') {
          void close().finally(() => process.exit(0));
        }
      });
      process.send!({ cmd: 'ready', url: '' });
    },
  };
};
