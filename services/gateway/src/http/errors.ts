import { AppError, type ErrorBody, STATUS_OF_CODE } from '@palaver/contracts';
import { logger } from '@palaver/platform';

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

const RETRYABLE = new Set([429, 503]);

/** The one place where error codes become HTTP statuses and the spec's error envelope. */
export const toErrorResponse = (err: unknown): ErrorResponse => {
  const appError = err instanceof AppError ? err : fromFrameworkError(err);
  const status = STATUS_OF_CODE[appError.code];
  const headers: Record<string, string> = {};
  let details = appError.details;
  if (details && 'retryAfter' in details) {
    // A retry hint only where the spec has one: 429 and 503.
    const { retryAfter, ...rest } = details;
    if (RETRYABLE.has(status) && typeof retryAfter === 'number') headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfter)));
    else details = Object.keys(rest).length > 0 ? rest : undefined;
  }
  return {
    status,
    headers,
    body: {
      error: {
        message: appError.message,
        code: appError.code,
        ...(details ? { details } : {}),
      },
    },
  };
};

/** Errors Fastify raises before our handlers run (body parsing, size, media type). */
const fromFrameworkError = (err: unknown): AppError => {
  const e = err as { statusCode?: number; code?: string; message?: string };
  const status = e?.statusCode;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json');
  if (status !== undefined && status >= 400 && status < 500) {
    return new AppError('INVALID_REQUEST_BODY', `malformed request: ${e.message ?? 'invalid body'}`);
  }
  logger.error({ err }, 'unexpected error');
  return new AppError('INTERNAL_SERVER_ERROR', 'unexpected server error');
};
