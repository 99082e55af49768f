import type { z } from 'zod';
import type { Job } from '../job-queue/job-queue.port';
import { logger } from '../logger/logger';

/**
 * A queue's handler that runs each job by its name. A job of a name nobody handles is logged and
 * dropped: retrying it could not help.
 */
export const jobsByName =
  (queue: string, handlers: Record<string, (job: Job) => Promise<void>>) =>
  async (job: Job): Promise<void> => {
    const handle = Object.hasOwn(handlers, job.name) ? handlers[job.name] : undefined;
    if (!handle) {
      logger.error({ queue, jobId: job.id, name: job.name }, 'unknown job dropped');
      return;
    }
    await handle(job);
  };

/** The job's data as `schema` reads it; null (logged, the job dropped: a retry would read the same) when it does not. */
export const jobData = <S extends z.ZodType>(schema: S, job: Job): z.output<S> | null => {
  const parsed = schema.safeParse(job.data);
  if (parsed.success) return parsed.data;
  logger.error({ jobId: job.id, name: job.name, issues: parsed.error.issues }, `malformed ${job.name} job dropped`);
  return null;
};
