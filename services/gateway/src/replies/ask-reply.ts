import type { Message, ProjectRecord } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import type { FastifyReply } from 'fastify';
import type { MessageLimits } from '../limits/message-limits';
import { recordAbandonedReply } from './abandoned-reply';
import { sendQueued } from './queued-reply';
import type { ReplyHub } from './reply-hub';
import type { ReplyListener } from './reply-listener';
import { STARTED_REPLY } from './reply-listener';
import { fixedReply, type ReplySource } from './send-reply';

/** What the command that starts a reply says happened: a reply follows, the message waits for a person, or it asked for one. */
export type ReplyOutcome = { kind: 'reply' } | { kind: 'queued' } | { kind: 'handoff'; notice: Pick<Message, 'id' | 'parts'> };

export interface ReplyRequest {
  /** The reply's id: its token channel's key, and the stored assistant message's id (if any). */
  replyId: string;
  /** The conversation the reply is stored in (its failure is recorded there when given up); null for a completion. */
  stored: { projectId: string; conversationId: string } | null;
  /** Work within the limits before listening (surface B creates the chat first). */
  before?: () => Promise<unknown>;
  /** Sends the command that starts the reply, naming this gateway's reply channel. */
  start: (replyTo: string) => Promise<ReplyOutcome>;
  /**
   * Settle as soon as the reply's first fragment arrives, if that is before the command's answer
   * (a posted message: its answer also waits for the conversation's read models).
   */
  settleOnFirstFragment: boolean;
}

export interface AskedReply {
  replyId: string;
  listener: ReplyListener;
  outcome: ReplyOutcome;
}

/** How a route writes a reply's fragments (UI message stream, JSON, plain text); `messageId` names the reply. */
export type ReplyWriter = (source: ReplySource, messageId: string) => Promise<unknown>;

/**
 * The "ask for a reply" use-case every surface shares (v2 messages, surface B's chats,
 * completions): within the project's limits and quota, listen to the reply's fragments BEFORE
 * the command that starts it is sent (pub/sub keeps nothing for late listeners), then send it.
 * Only an accepted request counts against the limits: a refused one (404, 409…) is given back.
 */
export class ReplyRequests {
  constructor(
    private readonly services: ServiceClient,
    private readonly limits: MessageLimits,
    private readonly replies: ReplyHub,
    private readonly replyTimeoutMs: number,
  ) {}

  ask(project: ProjectRecord, request: ReplyRequest): Promise<AskedReply> {
    return this.limits.within(project, async () => {
      if (request.before) await request.before();
      const { replyId, stored } = request;
      // Timed out or interrupted: recorded as failed first, with the text the visitor saw.
      const listener = stored
        ? this.replies.listen(replyId, this.replyTimeoutMs, recordAbandonedReply(this.services, { messageId: replyId, ...stored }))
        : this.replies.listen(replyId, this.replyTimeoutMs);
      const start = () => request.start(this.replies.channel);
      const outcome = request.settleOnFirstFragment ? await listener.startedOrAnswered(start) : await listener.startOrClose(start);
      return { replyId, listener, outcome };
    });
  }
}

/**
 * Answers with what the reply request came to: 202 text for a queued message, the handoff notice
 * as a reply known in advance, or the reply's live fragments, each written by `write`.
 */
export const answerAsked = async (reply: FastifyReply, asked: AskedReply, write: ReplyWriter): Promise<unknown> => {
  const { outcome, listener } = asked;
  if (outcome.kind === 'queued') {
    await listener.close();
    return sendQueued(reply);
  }
  if (outcome.kind === 'handoff') {
    await listener.close();
    return write(fixedReply(outcome.notice.parts.map((p) => p.text).join('')), outcome.notice.id);
  }
  return write(listener, asked.replyId);
};

/** The outcome of a command whose success always means a reply follows (a regenerate, a completion). */
export const replyFollows = (): ReplyOutcome => STARTED_REPLY;
