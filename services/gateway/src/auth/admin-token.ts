import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';
import { bearerOf } from './bearer';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Admin API guard: the bearer must equal ADMIN_TOKEN (compared in constant time). */
export const requireAdmin = (adminToken: string, request: FastifyRequest): void => {
  const given = bearerOf(request);
  if (!timingSafeEqual(digest(given), digest(adminToken))) throw new AppError('UNAUTHORIZED', 'invalid admin token');
};
