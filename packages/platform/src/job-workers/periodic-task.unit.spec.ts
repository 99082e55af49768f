import { describe, expect, it, vi } from 'vitest';
import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  it('shares the run under way with a second caller', async () => {
    let release = (): void => undefined;
    const run = vi.fn(() => new Promise<number>((resolve) => (release = () => resolve(1))));
    const task = new PeriodicTask({ run, everyMs: 60_000, failed: () => undefined });
    const first = task.run();
    const second = task.run();
    release();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(run).toHaveBeenCalledTimes(1);
    const third = task.run();
    release();
    await third;
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('hands a failed run to `failed` when run quietly, and waits for the run under way when stopped', async () => {
    const failed = vi.fn();
    const task = new PeriodicTask({ run: () => Promise.reject(new Error('down')), everyMs: 60_000, failed });
    expect(await task.start()).toBeUndefined();
    expect(failed).toHaveBeenCalledWith(new Error('down'));
    await expect(task.run()).rejects.toThrow('down');
    await task.stop();
  });
});
