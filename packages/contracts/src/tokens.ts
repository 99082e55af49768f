import { z } from 'zod';
import { FinishReason, Usage } from './v2/completion';

/** Pub/sub channel of one reply's fragments. Subscribe before the work starts. */
export const replyChannel = (replyId: string): string => `reply.${replyId}`;

export const TokenChunk = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), delta: z.string() }),
  z.object({ type: z.literal('finish'), text: z.string(), finishReason: FinishReason, usage: Usage }),
  z.object({ type: z.literal('error'), code: z.string(), error: z.string() }),
]);
export type TokenChunk = z.infer<typeof TokenChunk>;
