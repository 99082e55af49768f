import { AppError } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';

/** The credential of `Authorization: Bearer <value>`; a missing or malformed header is a 401. */
export const bearerOf = (request: FastifyRequest): string => {
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 'missing Authorization header');
  const match = /^Bearer[ ]+([^\s]+)$/i.exec(header.trim());
  if (!match) throw new AppError('UNAUTHORIZED', 'malformed Authorization header: expected "Bearer <token>"');
  return match[1]!;
};

export const originOf = (request: FastifyRequest): string | null => {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin.length > 0 ? origin : null;
};
