export interface Job<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** 1 on the first run. */
  attempt: number;
}

export interface EnqueueOptions {
  /** Idempotency: a second enqueue with the same id is ignored while the first exists. */
  jobId?: string;
  /** Total runs allowed when the processor throws (default 1). */
  attempts?: number;
  backoffMs?: number;
  /** The job waits this long before its first run (it exists meanwhile). */
  delayMs?: number;
}

export interface JobWorker {
  close(): Promise<void>;
}

/** Work queue (BullMQ in distributed mode). */
export interface JobQueue {
  enqueue(queue: string, name: string, data: unknown, options?: EnqueueOptions): Promise<void>;
  process(queue: string, handler: (job: Job) => Promise<void>, options?: { concurrency?: number }): Promise<JobWorker>;
  /**
   * Whether the job with this id still exists: waiting, running, or waiting to retry. False once
   * it finished or failed for good, and for every job of an in-process queue after a restart.
   */
  exists(queue: string, jobId: string): Promise<boolean>;
  close(): Promise<void>;
}
