import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type CloseConversationResponse,
  type Conversation,
  ConversationMessages,
  GENERATE_REPLY_JOB,
  type GenerateReplyJob,
  INFERENCE_QUEUE,
  type Message,
  type PostMessageOutcome,
} from '@palaver/contracts';
import { type JobQueue, logger, Ports } from '@palaver/platform';
import type { z } from 'zod';
import { messageForbidden, messageNotFound } from './domain/conversation.errors';
import { recentHistory } from './domain/conversation.history';
import { ConversationExecutor, type Executed } from './conversation.executor';
import { ReadModel } from './projections/read-model';
import { documentsOf, toConversation, toFullConversation, toMessage } from './queries/conversation.presenter';

type Req<K extends keyof typeof ConversationMessages> = z.output<(typeof ConversationMessages)[K]['request']>;

const ok = { ok: true } as const;

/** A message of the conversation after the command, as readers see it (no store round trip). */
const messageAfter = (executed: Executed, messageId: string): Message => {
  const message = documentsOf(executed.events).messages.find((m) => m._id === messageId);
  if (!message) throw new Error(`message ${messageId} is not in its conversation's events`);
  return toMessage(message);
};

@Injectable()
export class ConversationCommandService {
  constructor(
    @Inject(ConversationExecutor) private readonly executor: ConversationExecutor,
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
  ) {}

  async create(req: Req<'create'>): Promise<Conversation> {
    const executed = await this.executor.execute({
      type: 'Start',
      conversationId: randomUUID(),
      projectId: req.projectId,
      visitorId: req.visitorId,
      pageUrl: req.pageUrl,
    });
    const { conversation } = documentsOf(executed.events);
    if (!conversation) throw new Error('a started conversation has no document');
    return toConversation(conversation, { messages: [] });
  }

  async postMessage(req: Req<'postMessage'>): Promise<PostMessageOutcome> {
    const messageId = randomUUID();
    const executed = await this.executor.execute({
      type: 'PostUserMessage',
      conversationId: req.conversationId,
      projectId: req.projectId,
      visitorId: req.visitorId,
      messageId,
      content: req.content,
      pageContext: req.pageContext,
      assistantMessageId: req.assistantMessageId,
      assistantId: req.assistantId,
    });
    const userMessage = messageAfter(executed, messageId);
    if (!executed.appended.some((e) => e.type === 'AssistantReplyStarted')) return { kind: 'queued', userMessage };
    await this.enqueueReply(req, executed);
    return { kind: 'reply', userMessage, assistantMessageId: req.assistantMessageId };
  }

  private async enqueueReply(req: Req<'postMessage'>, executed: Executed): Promise<void> {
    if (executed.state.status === 'none') throw new Error('a conversation with a reply has no state');
    const job: GenerateReplyJob = {
      projectId: req.projectId,
      conversationId: req.conversationId,
      assistantMessageId: req.assistantMessageId,
      assistantId: req.assistantId,
      history: recentHistory(executed.state),
      pageContext: req.pageContext,
    };
    try {
      await this.jobs.enqueue(INFERENCE_QUEUE, GENERATE_REPLY_JOB, job, { jobId: req.assistantMessageId });
    } catch (err) {
      logger.error({ err, conversationId: req.conversationId }, 'could not enqueue the reply');
      // Nobody will answer: close the reply now instead of leaving it streaming until it times out.
      await this.executor.execute({
        type: 'FailReply',
        conversationId: req.conversationId,
        projectId: req.projectId,
        messageId: req.assistantMessageId,
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
    const executed = await this.executor.execute({
      type: 'Close',
      conversationId: req.conversationId,
      projectId: req.projectId,
      visitorId: req.visitorId,
      closeReason: req.closeReason,
    });
    return {
      success: true,
      message: executed.appended.length > 0 ? 'Conversation closed' : 'Conversation was already closed',
    };
  }

  async setFeedback(req: Req<'setFeedback'>): Promise<{ feedback: Message['feedback'] }> {
    const message = await this.readModel.messages.findOne({ _id: req.messageId, projectId: req.projectId });
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

  async completeReply(req: Req<'completeReply'>): Promise<typeof ok> {
    await this.executor.execute({
      type: 'CompleteReply',
      conversationId: req.conversationId,
      projectId: req.projectId,
      messageId: req.messageId,
      text: req.text,
      finishReason: req.finishReason,
      usage: req.usage,
      ...(req.sources ? { sources: req.sources } : {}),
    });
    return ok;
  }

  async failReply(req: Req<'failReply'>): Promise<typeof ok> {
    await this.executor.execute({
      type: 'FailReply',
      conversationId: req.conversationId,
      projectId: req.projectId,
      messageId: req.messageId,
      error: req.error,
      partialText: req.partialText,
    });
    return ok;
  }

  async handoff(req: Req<'handoff'>): Promise<Conversation> {
    const executed = await this.executor.execute({
      type: 'Handoff',
      conversationId: req.conversationId,
      projectId: req.projectId,
      humanAgent: req.humanAgent,
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
    });
    return messageAfter(executed, messageId);
  }
}
