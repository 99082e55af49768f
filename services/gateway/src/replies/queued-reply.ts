import type { FastifyReply } from 'fastify';

/** The spec's answer to a message for a human-handled conversation: 202 with a text confirmation. */
export const sendQueued = (reply: FastifyReply): FastifyReply =>
  reply.status(202).type('text/plain; charset=utf-8').send('Message received: a human agent will answer.');
