import { AppError, type ErrorCode } from '@palaver/contracts';

export interface ReplyFailure {
  code: ErrorCode;
  /** Shown to the visitor and stored on the message: says what went wrong, leaks no internals. */
  message: string;
}

/** How a failed reply is reported, from what failed. */
export const describeFailure = (err: unknown): ReplyFailure => {
  if (!(err instanceof AppError)) return { code: 'INTERNAL_SERVER_ERROR', message: 'The reply failed because of an internal error.' };
  if (err.code === 'BAD_GATEWAY' && err.details?.service === 'llm') {
    return {
      code: 'BAD_GATEWAY',
      message: err.details.reason === 'timeout' ? 'The language model took too long to answer.' : 'The language model failed to answer.',
    };
  }
  if (err.code === 'SERVICE_UNAVAILABLE') return { code: err.code, message: 'A service needed for the reply is unavailable.' };
  if (err.code === 'INTERNAL_SERVER_ERROR') return { code: err.code, message: 'The reply failed because of an internal error.' };
  return { code: err.code, message: err.message };
};

/** The terminal chunk that tells whoever listens to the reply that it failed, and why. */
export const errorChunkOf = (failure: ReplyFailure) => ({ type: 'error' as const, code: failure.code, error: failure.message });
