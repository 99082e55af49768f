import { z } from 'zod';
import { SerializedError } from '../errors';

/** One message crossing a process boundary: its subject and both schemas, declared once. */
export interface ServiceMessage<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly request: Req;
  readonly response: Res;
}

export const defineMessage = <Req extends z.ZodType, Res extends z.ZodType>(
  subject: string,
  request: Req,
  response: Res,
): ServiceMessage<Req, Res> => ({ subject, request, response });

export type RequestOf<M extends ServiceMessage> = z.input<M['request']>;
export type ResponseOf<M extends ServiceMessage> = z.output<M['response']>;

/** What a handler sends back over the transport: data, or a catalogued error (never a thrown exception). */
export const ReplyEnvelope = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: SerializedError }),
]);
export type ReplyEnvelope = z.infer<typeof ReplyEnvelope>;

export const Ack = z.object({ ok: z.literal(true) });
