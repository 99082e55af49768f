import type { FastifyReply } from 'fastify';

/** Answers JSON text serialized beforehand (a cached answer) with the headers Fastify gives an object. */
export const sendJson = (reply: FastifyReply, json: string): FastifyReply => reply.type('application/json; charset=utf-8').send(json);
