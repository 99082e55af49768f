import { AppError, type ReplyEnvelope, type ServiceMessage } from '@palaver/contracts';
import type { z } from 'zod';
import { logger } from '../logger/logger';

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
  try {
    return { ok: true, data: await run(parsed.data as z.output<M['request']>) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, error: err.toJSON() };
    logger.error({ err, subject: message.subject }, 'handler failed');
    return { ok: false, error: { code: 'INTERNAL_SERVER_ERROR', message: 'internal error' } };
  }
};
