/** The first retry waits this long by default, each later one twice as long (BullMQ's exponential). */
export const DEFAULT_BACKOFF_MS = 1000;

/**
 * Names BullMQ refuses, refused by every adapter alike so that code that works on the embedded
 * queue does not fail only in production: queue names with ':', job ids with ':' or that are
 * integers.
 */
export const checkQueueName = (queue: string): void => {
  if (queue.length === 0 || queue.includes(':')) {
    throw new Error(`invalid queue name "${queue}": it must be non-empty and contain no ':'`);
  }
};

export const checkJobId = (jobId: string): void => {
  if (jobId.length === 0 || jobId.includes(':') || `${Number.parseInt(jobId, 10)}` === jobId) {
    throw new Error(`invalid jobId "${jobId}": it must be non-empty, not an integer, and contain no ':'`);
  }
};
