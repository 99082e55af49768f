import { trace } from '@opentelemetry/api';
import pino from 'pino';
import { tracingEnabled } from '../tracing/tracing';

/** A line logged inside a span carries its ids, to find the trace from the log and back. */
const traceIds = (): Record<string, string> => {
  if (!tracingEnabled()) return {};
  const span = trace.getActiveSpan()?.spanContext();
  return span ? { traceId: span.traceId, spanId: span.spanId } : {};
};

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' || process.env.VITEST ? 'silent' : 'info'),
  base: undefined,
  mixin: traceIds,
});
export type Logger = typeof logger;
