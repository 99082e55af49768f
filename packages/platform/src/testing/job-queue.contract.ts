import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job, JobQueue } from '../job-queue/job-queue.port';

const WAIT = { timeout: 5_000, interval: 10 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface JobQueueFixture {
  jobs: JobQueue;
  /** Removes what the test left behind (after `jobs.close()`). */
  cleanup?(): Promise<void>;
}

/** The behaviour every JobQueue adapter shares; `factory` gives a fresh, connected instance. */
export function describeJobQueueContract(adapterName: string, factory: () => Promise<JobQueueFixture>): void {
  describe(`JobQueue contract: ${adapterName}`, () => {
    let fixture: JobQueueFixture;
    let jobs: JobQueue;
    let closed: boolean;
    const queueName = () => `q-${randomUUID()}`;

    beforeEach(async () => {
      fixture = await factory();
      jobs = fixture.jobs;
      closed = false;
    });

    afterEach(async () => {
      if (!closed) await jobs.close();
      await fixture.cleanup?.();
    });

    it('runs an enqueued job with its name and data, as attempt 1', async () => {
      const queue = queueName();
      const seen: Job[] = [];
      await jobs.process(queue, async (job) => {
        seen.push(job);
      });
      await jobs.enqueue(queue, 'generate-reply', { conversationId: 'c1', history: [{ role: 'user', text: 'hi' }] });
      await vi.waitFor(() => expect(seen).toHaveLength(1), WAIT);
      expect(seen[0]).toMatchObject({
        name: 'generate-reply',
        data: { conversationId: 'c1', history: [{ role: 'user', text: 'hi' }] },
        attempt: 1,
      });
      expect(typeof seen[0]!.id).toBe('string');
    });

    it('holds a delayed job back for its delay, and it exists meanwhile', async () => {
      const queue = queueName();
      const ranAt: number[] = [];
      await jobs.process(queue, async () => {
        ranAt.push(Date.now());
      });
      const enqueuedAt = Date.now();
      await jobs.enqueue(queue, 'later', null, { jobId: 'delayed-1', delayMs: 400 });
      expect(await jobs.exists(queue, 'delayed-1')).toBe(true);
      await vi.waitFor(() => expect(ranAt).toHaveLength(1), WAIT);
      expect(ranAt[0]! - enqueuedAt).toBeGreaterThanOrEqual(390);
    });

    it('runs jobs enqueued before a processor registers once one does', async () => {
      const queue = queueName();
      await jobs.enqueue(queue, 'early', { n: 1 });
      await jobs.enqueue(queue, 'early', { n: 2 });
      const seen: unknown[] = [];
      await jobs.process(queue, async (job) => {
        seen.push(job.data);
      });
      await vi.waitFor(() => expect(seen).toEqual([{ n: 1 }, { n: 2 }]), WAIT);
    });

    it('runs jobs first in, first out with concurrency 1', async () => {
      const queue = queueName();
      for (let n = 0; n < 8; n++) await jobs.enqueue(queue, 'ordered', { n });
      const seen: number[] = [];
      await jobs.process(queue, async (job) => {
        seen.push((job.data as { n: number }).n);
        await sleep(2);
      });
      await vi.waitFor(() => expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]), WAIT);
    });

    it('keeps queues apart', async () => {
      const a = queueName();
      const b = queueName();
      const seenA: unknown[] = [];
      await jobs.process(a, async (job) => {
        seenA.push(job.data);
      });
      await jobs.enqueue(b, 'other', { q: 'b' });
      await jobs.enqueue(a, 'mine', { q: 'a' });
      // First in, first out: once a job enqueued last on `a` has run, the other would have too, had it come to `a`.
      await jobs.enqueue(a, 'last', { q: 'a, last' });
      await vi.waitFor(() => expect(seenA).toContainEqual({ q: 'a, last' }), WAIT);
      expect(seenA).toEqual([{ q: 'a' }, { q: 'a, last' }]);
    });

    it('runs up to `concurrency` jobs at once and no more', async () => {
      const queue = queueName();
      let running = 0;
      let peak = 0;
      let done = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      await jobs.process(
        queue,
        async () => {
          running += 1;
          peak = Math.max(peak, running);
          await gate;
          running -= 1;
          done += 1;
        },
        { concurrency: 3 },
      );
      for (let n = 0; n < 6; n++) await jobs.enqueue(queue, 'parallel', { n });
      await vi.waitFor(() => expect(running).toBe(3), WAIT);
      await sleep(150);
      expect(running).toBe(3);
      release();
      await vi.waitFor(() => expect(done).toBe(6), WAIT);
      expect(peak).toBe(3);
    });

    it('retries a failing job with backoff, counting attempts', async () => {
      const queue = queueName();
      const attempts: Array<{ attempt: number; at: number }> = [];
      await jobs.process(queue, async (job) => {
        attempts.push({ attempt: job.attempt, at: Date.now() });
        if (job.attempt < 3) throw new Error(`transient failure ${job.attempt}`);
      });
      await jobs.enqueue(queue, 'flaky', {}, { attempts: 3, backoffMs: 50 });
      await vi.waitFor(() => expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]), WAIT);
      // Exponential: about 50 ms before the second run, about 100 ms before the third.
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(40);
      expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(80);
    });

    it('gives up after the allowed attempts, and by default runs a failing job once', async () => {
      const queue = queueName();
      const runs: Record<string, number> = {};
      await jobs.process(queue, async (job) => {
        runs[job.name] = (runs[job.name] ?? 0) + 1;
        throw new Error('always fails');
      });
      await jobs.enqueue(queue, 'twice', {}, { attempts: 2, backoffMs: 10 });
      await jobs.enqueue(queue, 'once', {});
      await vi.waitFor(() => expect(runs).toEqual({ twice: 2, once: 1 }), WAIT);
      await sleep(200);
      expect(runs).toEqual({ twice: 2, once: 1 });
    });

    it('ignores a second enqueue with the same jobId while the first exists, and accepts it after', async () => {
      const queue = queueName();
      const jobId = `reply-${randomUUID()}`;
      await jobs.enqueue(queue, 'dedupe', { copy: 1 }, { jobId });
      await jobs.enqueue(queue, 'dedupe', { copy: 2 }, { jobId });
      const seen: Job[] = [];
      await jobs.process(queue, async (job) => {
        seen.push(job);
      });
      await vi.waitFor(() => expect(seen).toHaveLength(1), WAIT);
      expect(seen[0]).toMatchObject({ id: jobId, data: { copy: 1 } });
      // First in, first out: once a job enqueued now has run, a second copy would have run before it.
      await jobs.enqueue(queue, 'last', {});
      await vi.waitFor(() => expect(seen.map((j) => j.name)).toContain('last'), WAIT);
      expect(seen.map((j) => j.name)).toEqual(['dedupe', 'last']);
      await jobs.enqueue(queue, 'dedupe', { copy: 3 }, { jobId });
      await vi.waitFor(() => expect(seen.filter((j) => j.name === 'dedupe').map((j) => j.data)).toEqual([{ copy: 1 }, { copy: 3 }]), WAIT);
    });

    it('tells whether a job exists: while waiting and running, not once finished or failed', async () => {
      const queue = queueName();
      const [done, failing] = [`done-${randomUUID()}`, `failing-${randomUUID()}`];
      expect(await jobs.exists(queue, done)).toBe(false);
      await jobs.enqueue(queue, 'exists', { fail: false }, { jobId: done });
      await jobs.enqueue(queue, 'exists', { fail: true }, { jobId: failing });
      expect(await jobs.exists(queue, done)).toBe(true);
      let release!: () => void;
      const running = new Promise<void>((resolve) => {
        release = resolve;
      });
      const started: string[] = [];
      await jobs.process(queue, async (job) => {
        started.push(job.id);
        if ((job.data as { fail: boolean }).fail) throw new Error('fails for good');
        await running;
      });
      await vi.waitFor(() => expect(started).toContain(done), WAIT);
      expect(await jobs.exists(queue, done)).toBe(true);
      release();
      await vi.waitFor(async () => expect(await jobs.exists(queue, done)).toBe(false), WAIT);
      await vi.waitFor(async () => expect(await jobs.exists(queue, failing)).toBe(false), WAIT);
    });

    it('hands a job to the processor as a copy of what was enqueued', async () => {
      const queue = queueName();
      const data = { items: [1, 2] };
      const seen: unknown[] = [];
      await jobs.enqueue(queue, 'copy', data);
      data.items.push(3);
      await jobs.process(queue, async (job) => {
        seen.push(job.data);
      });
      await vi.waitFor(() => expect(seen).toEqual([{ items: [1, 2] }]), WAIT);
    });

    it('stops a closed worker from taking jobs, leaving them to another', async () => {
      const queue = queueName();
      const first: unknown[] = [];
      const worker = await jobs.process(queue, async (job) => {
        first.push(job.data);
      });
      await jobs.enqueue(queue, 'w', { n: 1 });
      await vi.waitFor(() => expect(first).toEqual([{ n: 1 }]), WAIT);
      await worker.close();
      await jobs.enqueue(queue, 'w', { n: 2 });
      await sleep(150);
      expect(first).toEqual([{ n: 1 }]);
      const second: unknown[] = [];
      await jobs.process(queue, async (job) => {
        second.push(job.data);
      });
      await vi.waitFor(() => expect(second).toEqual([{ n: 2 }]), WAIT);
    });

    it('refuses queue names and job ids that BullMQ cannot take', async () => {
      await expect(jobs.enqueue('a:b', 'x', {})).rejects.toThrow(/queue name/);
      await expect(jobs.process('a:b', async () => {})).rejects.toThrow(/queue name/);
      await expect(jobs.enqueue(queueName(), 'x', {}, { jobId: 'reply:1' })).rejects.toThrow(/jobId/);
      await expect(jobs.enqueue(queueName(), 'x', {}, { jobId: '42' })).rejects.toThrow(/jobId/);
    });

    it('waits for running jobs on close', async () => {
      const queue = queueName();
      let started = false;
      let finished = false;
      await jobs.process(queue, async () => {
        started = true;
        await sleep(300);
        finished = true;
      });
      await jobs.enqueue(queue, 'slow', {});
      await vi.waitFor(() => expect(started).toBe(true), WAIT);
      closed = true;
      await jobs.close();
      expect(finished).toBe(true);
    });
  });
}
