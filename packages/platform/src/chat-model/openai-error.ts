import { AppError } from '@palaver/contracts';
import { APIError } from 'openai';

/** An OpenAI SDK failure as the BAD_GATEWAY of the named upstream ('llm', 'embeddings'). */
export const upstreamError = (err: unknown, service: 'llm' | 'embeddings', what: string): AppError => {
  if (err instanceof AppError) return err;
  if (err instanceof APIError && err.status !== undefined) {
    return new AppError('BAD_GATEWAY', `${what} answered ${err.status}: ${upstreamMessage(err)}`, {
      service,
      status: err.status,
    });
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new AppError('BAD_GATEWAY', `${what} failed: ${reason}`, { service });
};

/** The message of the upstream's error body, else the SDK's summary. */
const upstreamMessage = (err: APIError): string => {
  const body: unknown = err.error;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message;
  return err.message;
};
