import { z } from 'zod';
import { FinishReason, Usage } from './v2/completion';
import { ReplySource } from './v2/message';

/** Pub/sub channel of one reply's fragments. Subscribe before the work starts. */
export const replyChannel = (replyId: string): string => `reply.${replyId}`;

export const TokenChunk = z.discriminatedUnion('type', [
  /** The reply's first delta carries its sources (the finish does too, for a reply without text). */
  z.object({ type: z.literal('delta'), delta: z.string(), sources: z.array(ReplySource).optional() }),
  z.object({
    type: z.literal('finish'),
    text: z.string(),
    finishReason: FinishReason,
    usage: Usage,
    sources: z.array(ReplySource).optional(),
  }),
  z.object({ type: z.literal('error'), code: z.string(), error: z.string() }),
]);
export type TokenChunk = z.infer<typeof TokenChunk>;

/** The error recorded on a reply given up as abandoned (by the gateway's wait or the next message). */
export const REPLY_TIMED_OUT = 'reply timed out';
