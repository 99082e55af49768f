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
}

export interface JobWorker {
  close(): Promise<void>;
}

/** Work queue (BullMQ in distributed mode). */
export interface JobQueue {
  enqueue(queue: string, name: string, data: unknown, options?: EnqueueOptions): Promise<void>;
  process(
    queue: string,
    handler: (job: Job) => Promise<void>,
    options?: { concurrency?: number },
  ): Promise<JobWorker>;
  close(): Promise<void>;
}
