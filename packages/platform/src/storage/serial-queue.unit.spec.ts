import { setImmediate as laterTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue';

describe('SerialQueue', () => {
  it('runs tasks in call order, one at a time, past a failing one', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        order.push(`${name} start`);
        // Ends on a later turn of the event loop: a task run beside it would start in between.
        await laterTurn();
        order.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run(task('a')), queue.run(task('b', true)), queue.run(task('c'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('is idle only when no task is queued or running, failed ones included', async () => {
    const queue = new SerialQueue();
    expect(queue.idle).toBe(true);
    let release!: () => void;
    const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const second = queue.run(async () => {
      throw new Error('second');
    });
    expect(queue.idle).toBe(false);
    await Promise.resolve();
    release();
    await first;
    await expect(second).rejects.toThrow('second');
    await queue.drain();
    expect(queue.idle).toBe(true);
  });
});
