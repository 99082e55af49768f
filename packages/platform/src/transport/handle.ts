import { AppError, type ReplyEnvelope, type ServiceMessage } from '@palaver/contracts';
import type { z } from 'zod';
import { logger } from '../logger/logger';
import { serviceMetrics } from '../metrics/service-metrics';
import { idAttributes, inSpan, operationName, SpanKind } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';

/**
 * The body of every message handler: parse the request with the message's schema, run, and
 * answer an envelope. Catalogued errors travel as data; anything else is logged and becomes
 * INTERNAL_SERVER_ERROR, so no exception escapes into the transport.
 */
export const handle = async <M extends ServiceMessage>(
  message: M,
  raw: unknown,
  run: (request: z.output<M['request']>) => Promise<z.input<M['response']>>,
): Promise<ReplyEnvelope> => {
  const parsed = message.request.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: `invalid ${message.subject} request: ${issue?.message ?? 'invalid'}`,
        details: { field: issue?.path.join('.') ?? '', reason: issue?.message ?? '' },
      },
    };
  }
  const request = parsed.data as z.output<M['request']>;
  try {
    const data = tracingEnabled()
      ? await inSpan(operationName(message.subject), idAttributes(request), () => measured(message.subject, () => run(request)), {
          kind: SpanKind.SERVER,
        })
      : await measured(message.subject, () => run(request));
    return { ok: true, data };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, error: err.toJSON() };
    logger.error({ err, subject: message.subject }, 'handler failed');
    return { ok: false, error: { code: 'INTERNAL_SERVER_ERROR', message: 'internal error' } };
  }
};

/** Runs a handler counted and timed by outcome (inside its span, so the metrics' exemplar is that span). */
const measured = async <T>(subject: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  try {
    const result = await work();
    serviceMetrics().request(subject, 'ok', (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    serviceMetrics().request(subject, err instanceof AppError ? err.code : 'INTERNAL_SERVER_ERROR', (performance.now() - started) / 1000);
    throw err;
  }
};
