import { serviceMetrics } from '../metrics/service-metrics';
import { contextFrom, currentTraceContext, idAttributes, inSpan, SpanKind } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';
import type { Job } from './job-queue.port';

/** Where a job's data carries the W3C trace context of whoever enqueued it. */
const TRACE_FIELD = '_trace';

type TraceCarrier = Record<string, string>;

/** The data to store: with the enqueuer's trace context when tracing and the data is an object. */
export const withTraceContext = (data: unknown): unknown => {
  if (!tracingEnabled() || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const carrier = currentTraceContext();
  return carrier ? { ...data, [TRACE_FIELD]: carrier } : data;
};

/**
 * Runs a job's handler, counted and timed (palaver_jobs_total, palaver_job_duration_seconds), in a
 * span `<queue>.<job name>` that continues the enqueuer's trace when tracing. The trace field is
 * taken out of the data either way, so handlers never see it, whichever process enqueued the job.
 */
export const runInstrumented = (queue: string, job: Job, handler: (job: Job) => Promise<void>): Promise<void> => {
  const data = job.data as Record<string, unknown> | null;
  let carrier: TraceCarrier | undefined;
  if (typeof data === 'object' && data !== null && TRACE_FIELD in data) {
    carrier = data[TRACE_FIELD] as TraceCarrier;
    const { [TRACE_FIELD]: _, ...rest } = data;
    job = { ...job, data: rest };
  }
  const run = () => measured(queue, job, handler);
  if (!tracingEnabled()) return run();
  return inSpan(
    `${queue}.${job.name}`,
    { ...idAttributes(job.data), 'messaging.message.id': job.id, 'palaver.job.attempt': job.attempt },
    run,
    {
      kind: SpanKind.CONSUMER,
      parent: contextFrom(carrier),
    },
  );
};

const measured = async (queue: string, job: Job, handler: (job: Job) => Promise<void>): Promise<void> => {
  const started = performance.now();
  let outcome: 'ok' | 'failed' = 'failed';
  try {
    await handler(job);
    outcome = 'ok';
  } finally {
    serviceMetrics().job(queue, job.name, outcome, (performance.now() - started) / 1000);
  }
};
