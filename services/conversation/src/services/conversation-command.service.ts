import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type CloseConversationResponse,
  type Contact,
  type Conversation,
  type ConversationMessages,
  GENERATE_REPLY_JOB,
  type GenerateReplyJob,
  INFERENCE_QUEUE,
  type Message,
  type PostMessageOutcome,
  type Rating,
  replyJobId,
} from '@palaver/contracts';
import { type JobQueue, logger, Ports } from '@palaver/platform';
import type { z } from 'zod';
import { conversationNotFound, messageForbidden, messageNotFound } from '../domain/conversation.errors';
import { historyBefore, recentHistory } from '../domain/conversation.history';
import type { StoredConversationEvent } from '../domain/conversation.stream';
import { documentsOf, toConversation, toFullConversation, toMessage } from '../presenters/conversation.presenter';
import { messageIdOf } from '../projections/message.projection';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { MessageReadRepository } from '../repositories/message-read.repository';
import { ReplyKnowledge } from '../repositories/reply-knowledge';
import { ConversationExecutor, type Executed } from './conversation.executor';

type Req<K extends keyof typeof ConversationMessages> = z.output<(typeof ConversationMessages)[K]['request']>;

const ok = { ok: true } as const;

/**
 * A message of the conversation after the command, as readers see it (no store round trip). Only
 * the events that shape it are replayed: its own and the start (which names the visitor), not the
 * whole conversation; usually the command created the message, so they are all among its own.
 */
const messageAfter = (executed: Executed, messageId: string): Message => {
  const start = executed.events[0];
  const own = start && executed.appended[0] !== start ? [start, ...executed.appended] : executed.appended;
  const message = messageIn(own, messageId) ?? messageIn(executed.events, messageId);
  if (!message) throw new Error(`message ${messageId} is not in its conversation's events`);
  return toMessage(message);
};

const handsOff = (executed: Executed): boolean => executed.appended.some((e) => e.type === 'HumanHandoffRequested');

/** The command started a reply for the model to write (a handoff's notice is written already). */
const startsReply = (executed: Executed): boolean =>
  !handsOff(executed) && executed.appended.some((e) => e.type === 'AssistantReplyStarted');

type ReplyRequest = Pick<Req<'postMessage'>, 'projectId' | 'conversationId' | 'assistantId' | 'pageContext' | 'replyTo' | 'streamed'>;

const messageIn = (events: readonly StoredConversationEvent[], messageId: string) => {
  const shaping = events.filter((e) => e.type === 'ConversationStarted' || messageIdOf(e) === messageId);
  return documentsOf(shaping).messages.find((m) => m._id === messageId);
};

@Injectable()
export class ConversationCommandService {
  constructor(
    @Inject(ConversationExecutor) private readonly executor: ConversationExecutor,
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(MessageReadRepository) private readonly messages: MessageReadRepository,
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(ReplyKnowledge) private readonly knowledge: ReplyKnowledge,
  ) {}

  async create(req: Req<'create'>): Promise<Conversation> {
    if (req.conversationId !== undefined) {
      const existing = await this.conversations.get(req.projectId, req.conversationId);
      // Surface B addresses chats by the caller's id: someone else's is not there for this caller.
      if (existing && existing.visitorId !== req.visitorId) throw conversationNotFound(req.conversationId);
      if (existing) return toConversation(existing);
    }
    const executed = await this.executor.execute({
      type: 'Start',
      conversationId: req.conversationId ?? randomUUID(),
      projectId: req.projectId,
      visitorId: req.visitorId,
      pageUrl: req.pageUrl,
      userAgent: req.userAgent ?? null,
    });
    const { conversation } = documentsOf(executed.events);
    if (!conversation) throw new Error('a started conversation has no document');
    return toConversation(conversation, { messages: [] });
  }

  async postMessage(req: Req<'postMessage'>): Promise<PostMessageOutcome> {
    const messageId = randomUUID();
    // Asked while the message is stored; the job waits for it (it never rejects).
    const knowledge = this.knowledge.prefetch(req.projectId, req.content);
    let enqueued = null as Promise<unknown> | null;
    const executed = await this.executor.execute(
      {
        type: 'PostUserMessage',
        conversationId: req.conversationId,
        projectId: req.projectId,
        visitorId: req.visitorId,
        messageId,
        content: req.content,
        pageContext: req.pageContext,
        assistantMessageId: req.assistantMessageId,
        assistantId: req.assistantId,
        handoffTriggers: req.handoffTriggers,
        offlineNotice: req.offlineNotice,
      },
      // The reply starts as soon as the message is durable, while the read models are written.
      (appended) => {
        if (!startsReply(appended) || appended.state.status === 'none') return;
        const history = req.history ? [...req.history, { role: 'user' as const, content: req.content }] : recentHistory(appended.state);
        const job = this.replyJob(req, history, req.assistantMessageId, req.handoffTriggers !== null);
        enqueued = knowledge.then((found) =>
          this.jobs.enqueue(INFERENCE_QUEUE, GENERATE_REPLY_JOB, found ? { knowledge: found, ...job } : job, {
            jobId: req.assistantMessageId,
          }),
        );
        enqueued.catch(() => undefined); // handled below, once the command's turn is over
      },
    );
    const userMessage = messageAfter(executed, messageId);
    if (handsOff(executed)) {
      return { kind: 'handoff', userMessage, notice: messageAfter(executed, req.assistantMessageId) };
    }
    if (!startsReply(executed)) return { kind: 'queued', userMessage };
    if (!enqueued) throw new Error('a conversation with a reply has no state');
    await this.orFailReply(req, req.assistantMessageId, enqueued);
    return { kind: 'reply', userMessage, assistantMessageId: req.assistantMessageId };
  }

  /** A new version of an assistant message: same id, streamed again from the history before it (or the given one). */
  async regenerateReply(req: Req<'regenerateReply'>): Promise<{ assistantMessageId: string }> {
    const executed = await this.executor.execute({
      type: 'RegenerateReply',
      conversationId: req.conversationId,
      projectId: req.projectId,
      visitorId: req.visitorId,
      messageId: req.messageId,
      assistantId: req.assistantId,
    });
    if (executed.state.status === 'none') throw new Error('a regenerated conversation has no state');
    const history = req.history ?? historyBefore(executed.state, req.messageId);
    const version = executed.appended.at(-1)?.version ?? 0;
    await this.enqueueReply(
      {
        projectId: req.projectId,
        conversationId: req.conversationId,
        assistantId: req.assistantId,
        pageContext: null,
        replyTo: req.replyTo,
        streamed: req.streamed,
      },
      history,
      req.messageId,
      replyJobId(req.messageId, version),
    );
    return { assistantMessageId: req.messageId };
  }

  private async enqueueReply(
    req: ReplyRequest,
    history: GenerateReplyJob['history'],
    assistantMessageId: string,
    jobId = assistantMessageId,
  ): Promise<void> {
    const job = this.replyJob(req, history, assistantMessageId, false);
    await this.orFailReply(req, assistantMessageId, this.jobs.enqueue(INFERENCE_QUEUE, GENERATE_REPLY_JOB, job, { jobId }));
  }

  private replyJob(
    req: ReplyRequest,
    history: GenerateReplyJob['history'],
    assistantMessageId: string,
    handoffTool: boolean,
  ): GenerateReplyJob {
    return {
      projectId: req.projectId,
      conversationId: req.conversationId,
      assistantMessageId,
      assistantId: req.assistantId,
      history,
      pageContext: req.pageContext,
      ...(handoffTool ? { handoffTool } : {}),
      ...(req.replyTo ? { replyTo: req.replyTo } : {}),
      ...(req.streamed !== undefined ? { streamed: req.streamed } : {}),
    };
  }

  /** Waits for the reply's job to be queued; if it could not be, closes the reply as failed and says so. */
  private async orFailReply(req: ReplyRequest, assistantMessageId: string, enqueued: Promise<unknown>): Promise<void> {
    try {
      await enqueued;
    } catch (err) {
      logger.error({ err, conversationId: req.conversationId }, 'could not enqueue the reply');
      // Nobody will answer: close the reply now instead of leaving it streaming until it times out.
      await this.executor.execute({
        type: 'FailReply',
        conversationId: req.conversationId,
        projectId: req.projectId,
        messageId: assistantMessageId,
        error: 'the reply could not be queued',
        partialText: '',
      });
      throw new AppError('SERVICE_UNAVAILABLE', 'The assistant is unavailable; try again shortly', {
        retryAfter: 1,
        service: 'inference',
      });
    }
  }

  async close(req: Req<'close'>): Promise<CloseConversationResponse> {
    const executed = await this.executor.execute({ type: 'Close', ...req });
    return {
      success: true,
      message: executed.appended.length > 0 ? 'Conversation closed' : 'Conversation was already closed',
    };
  }

  /** The contact the visitor left, on its conversation (ContactCaptured; the latest one wins). */
  async captureContact(req: Req<'captureContact'>): Promise<Contact> {
    const executed = await this.executor.execute({ type: 'CaptureContact', ...req });
    const captured = executed.appended.find((event) => event.type === 'ContactCaptured');
    if (!captured) throw new Error('a captured contact has no event');
    return { email: req.email, name: req.name, capturedAt: captured.occurredAt };
  }

  async setFeedback(req: Req<'setFeedback'>): Promise<{ feedback: Message['feedback'] }> {
    const message = await this.messages.get(req.projectId, req.messageId);
    if (!message) throw messageNotFound(req.messageId);
    if (message.visitorId !== req.visitorId) throw messageForbidden();
    await this.executor.execute({
      type: 'SetFeedback',
      conversationId: message.conversationId,
      projectId: req.projectId,
      visitorId: req.visitorId,
      messageId: req.messageId,
      feedback: req.feedback,
    });
    return { feedback: req.feedback };
  }

  async rate(req: Req<'rate'>): Promise<Rating> {
    const { state } = await this.executor.execute({ type: 'Rate', ...req });
    const rating = state.status === 'none' ? null : state.rating;
    if (!rating) throw new Error(`conversation ${req.conversationId} has no rating after rating it`);
    return { object: 'conversation.rating', conversationId: req.conversationId, ...rating };
  }

  async completeReply(req: Req<'completeReply'>): Promise<typeof ok> {
    // The decider copies only the optional fields the command carries into the event.
    await this.executor.execute({ type: 'CompleteReply', ...req });
    return ok;
  }

  async failReply(req: Req<'failReply'>): Promise<typeof ok> {
    await this.executor.execute({ type: 'FailReply', ...req });
    return ok;
  }

  async handoff(req: Req<'handoff'>): Promise<Conversation> {
    const executed = await this.executor.execute({
      type: 'Claim',
      conversationId: req.conversationId,
      projectId: req.projectId,
      humanAgent: { id: null, ...req.humanAgent },
      mode: 'take',
    });
    const { conversation, messages } = documentsOf(executed.events);
    if (!conversation) throw new Error('a handed-off conversation has no document');
    return toFullConversation(conversation, messages);
  }

  async postAgentMessage(req: Req<'postAgentMessage'>): Promise<Message> {
    const messageId = randomUUID();
    const executed = await this.executor.execute({
      type: 'PostAgentMessage',
      conversationId: req.conversationId,
      projectId: req.projectId,
      messageId,
      content: req.content,
      humanAgentId: req.humanAgentId,
    });
    return messageAfter(executed, messageId);
  }
}
