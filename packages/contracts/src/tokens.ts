import { z } from 'zod';
import { FinishReason, Usage } from './v2/completion';
import { ReplySource } from './v2/message';

/** Pub/sub channel of one reply's fragments, when its request named no `replyTo`. */
export const replyChannel = (replyId: string): string => `reply.${replyId}`;

/**
 * A gateway's own reply channel: the fragments of every reply it waits for come on it, each as a
 * `RoutedTokenChunk`, so that a reply costs no pub/sub subscription of its own. Subscribed
 * before any request names it.
 */
export const ReplyTo = z.string().regex(/^replies\.[A-Za-z0-9-]{1,64}$/);

/**
 * Whether the requester shows the reply as it comes (absent: yes). A request answered with the
 * whole result (`stream: false`) reads only the terminal fragment, so its reply's text is sent as
 * progress at most every `QUIET_REPLY_PROGRESS_MS` instead of fragment by fragment: the
 * requester's wait still hears that the reply is alive.
 */
export const Streamed = z.boolean().optional();

/** A quiet (not streamed) reply sends the text generated since the last progress at most this often. */
export const QUIET_REPLY_PROGRESS_MS = 1_000;

/** Where a reply's fragments go: its gateway's channel (`replyTo`), else its own (`replyChannel`), and how often. */
export interface ReplyAddress {
  replyId: string;
  replyTo?: string | undefined;
  streamed?: boolean | undefined;
  /** Kept in the reply log too (a conversation's reply: resumable and stoppable). */
  replayable?: boolean | undefined;
}

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
  z.object({
    type: z.literal('error'),
    code: z.string(),
    error: z.string(),
    /**
     * The reply's worker died mid-reply, and its failure is not stored yet: the listener that
     * relayed the fragments stores it with the text it relayed (what the visitor saw), then
     * passes the error on. See REPLY_INTERRUPTED.
     */
    interrupted: z.literal(true).optional(),
  }),
]);
export type TokenChunk = z.infer<typeof TokenChunk>;

/** A fragment on a gateway's reply channel: which reply it belongs to, and the fragment (checked by the listener). */
export const RoutedTokenChunk = z.object({ replyId: z.string(), chunk: z.unknown() });
export type RoutedTokenChunk = z.infer<typeof RoutedTokenChunk>;

/** The error recorded on a reply given up as abandoned (by the gateway's wait or the next message). */
export const REPLY_TIMED_OUT = 'reply timed out';
/** The error recorded on a reply whose worker died mid-reply (its text: what had been relayed). */
export const REPLY_INTERRUPTED = 'the reply was interrupted: its worker stopped';

/**
 * Pub/sub channel announcing stopped replies (POST /v2/conversations/{id}/stop), as `StoppedReply`:
 * every gateway ends its listeners of the reply with `chunk` (its terminal chunk), every inference
 * worker cancels the reply's model call.
 */
export const REPLY_STOPS_CHANNEL = 'reply-stops';
export const StoppedReply = z.object({ replyId: z.string(), chunk: TokenChunk });
export type StoppedReply = z.infer<typeof StoppedReply>;

/** The finish reason of a reply the visitor stopped (stored with status `complete` and the text so far). */
export const STOPPED_FINISH_REASON = 'other' satisfies FinishReason;
