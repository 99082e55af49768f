import { z } from 'zod';

/** Stable error codes. The gateway maps each to one HTTP status (see `statusOfCode`). */
export const ErrorCode = z.enum([
  'INVALID_REQUEST_BODY',
  'INVALID_REQUEST_PARAMETERS',
  'UNAUTHORIZED',
  'INVALID_USER_TOKEN',
  'USER_TOKEN_REQUIRED',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONVERSATION_NOT_FOUND',
  'MESSAGE_NOT_FOUND',
  'PROJECT_NOT_FOUND',
  'QNA_NOT_FOUND',
  'DOCUMENT_NOT_FOUND',
  'ASSISTANT_NOT_FOUND',
  'KEY_NOT_FOUND',
  'SOURCE_NOT_FOUND',
  'WEBHOOK_NOT_FOUND',
  'DELIVERY_NOT_FOUND',
  'CONFLICT',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_SERVER_ERROR',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  INVALID_REQUEST_BODY: 400,
  INVALID_REQUEST_PARAMETERS: 400,
  UNAUTHORIZED: 401,
  INVALID_USER_TOKEN: 401,
  USER_TOKEN_REQUIRED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  QNA_NOT_FOUND: 404,
  DOCUMENT_NOT_FOUND: 404,
  ASSISTANT_NOT_FOUND: 404,
  KEY_NOT_FOUND: 404,
  SOURCE_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
};

export const ErrorDetails = z.record(z.string(), z.unknown());
export type ErrorDetails = z.infer<typeof ErrorDetails>;

/** The spec's error envelope (surface A). */
export const ErrorBody = z.object({
  error: z.object({
    message: z.string(),
    code: z.string().optional(),
    details: ErrorDetails.optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A failure that crosses service boundaries as data: a code from the catalogue, never an HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toJSON(): SerializedError {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export const SerializedError = z.object({
  code: ErrorCode,
  message: z.string(),
  details: ErrorDetails.optional(),
});
export type SerializedError = z.infer<typeof SerializedError>;
