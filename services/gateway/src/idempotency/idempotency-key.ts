import { createHash } from 'node:crypto';
import { AppError } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const MAX_IDEMPOTENCY_KEY = 255;

/**
 * The request's `Idempotency-Key`, or null without one. A key that is empty, longer than 255
 * characters or sent twice is a 422: it has the right shape (a header) but breaks a length rule.
 */
export const idempotencyKeyOf = (request: FastifyRequest): string | null => {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return null;
  if (Array.isArray(value)) throw invalidKey('send one Idempotency-Key header');
  if (value.length < 1 || value.length > MAX_IDEMPOTENCY_KEY) {
    throw invalidKey(`the key is ${value.length} characters long (1 to ${MAX_IDEMPOTENCY_KEY})`);
  }
  return value;
};

const invalidKey = (reason: string): AppError =>
  new AppError('VALIDATION_ERROR', `"Idempotency-Key" must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`, {
    field: 'Idempotency-Key',
    reason,
  });

/**
 * What makes two requests "the same": method, path (with its query) and body, the body's keys in
 * sorted order so a client that serializes an object another way still matches.
 */
export const requestFingerprint = (request: FastifyRequest): string =>
  createHash('sha256').update(`${request.method} ${request.url}\n`).update(canonicalJson(request.body)).digest('base64url');

const canonicalJson = (value: unknown): string => {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
};

/** The record's key in the KV store: the caller's scope and a digest of their key (so its length is bounded). */
export const recordKey = (callerScope: string, key: string): string =>
  `idempotency:${callerScope}:${createHash('sha256').update(key).digest('base64url')}`;
