import type { Socket } from 'node:net';
import { AppError } from '@palaver/contracts';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { toErrorResponse } from './errors';

/**
 * Errors Fastify's router raises before any route or hook runs (a path parameter over
 * `maxParamLength`, a malformed percent-escape): answered in the spec's envelope as a bad path,
 * instead of Fastify's own `{ error, code: 'FST_…' }` body and its 414.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  err: Error & { code?: string },
  _request: FastifyRequest,
  reply: FastifyReply,
) => {
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'the request path is malformed';
  const { status, body } = toErrorResponse(new AppError('INVALID_REQUEST_PARAMETERS', message, { field: 'path' }));
  void reply.status(status).send(body);
};

/**
 * Errors of the HTTP parser itself (malformed request line or headers, a request that hit
 * `requestTimeout`): the socket is answered in the envelope and closed.
 */
export const clientErrorHandler = (err: Error & { code?: string }, socket: Socket): void => {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const { status, body } = toErrorResponse(
    timedOut
      ? new AppError('REQUEST_TIMEOUT', 'the request was not received in time')
      : new AppError('INVALID_REQUEST_PARAMETERS', 'malformed HTTP request'),
  );
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${timedOut ? 'Request Timeout' : 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
};
