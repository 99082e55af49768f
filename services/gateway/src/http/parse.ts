import { AppError } from '@palaver/contracts';
import type { z } from 'zod';

type Source = 'body' | 'query' | 'path';

/** zod issue codes that mean "wrong shape" (400); every other failed rule is a 422. */
const SHAPE_ISSUES = new Set(['invalid_type', 'unrecognized_keys', 'invalid_union', 'invalid_key', 'invalid_element']);

/**
 * Parses one part of a request with its contract schema. Missing or wrongly-typed input, and any
 * malformed path id, is a 400 (INVALID_REQUEST_BODY for bodies, INVALID_REQUEST_PARAMETERS for
 * query and path);
 * a well-formed value that breaks a rule (length, range, enum, format) is a 422 VALIDATION_ERROR.
 */
export const parse = <S extends z.ZodType>(schema: S, input: unknown, source: Source): z.output<S> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.') || source;
  const reason = issue.message;
  if (source === 'path' || SHAPE_ISSUES.has(issue.code)) {
    const code = source === 'body' ? 'INVALID_REQUEST_BODY' : 'INVALID_REQUEST_PARAMETERS';
    throw new AppError(code, `invalid ${source === 'path' ? 'path parameter' : source} field "${field}": ${reason}`, {
      field,
      reason,
    });
  }
  throw new AppError('VALIDATION_ERROR', `"${field}" ${reason}`, { field, reason });
};
