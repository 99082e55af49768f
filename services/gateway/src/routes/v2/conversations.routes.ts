import { randomUUID } from 'node:crypto';
import {
  ChatCompletionResult,
  CloseConversationBody,
  CloseConversationResponse,
  Conversation,
  ConversationMessages,
  CreateConversationBody,
  FeedbackBody,
  FeedbackResponse,
  ListConversationsQuery,
  ListMessagesQuery,
  MAX_USER_AGENT,
  Message,
  PostMessageBody,
  pagedList,
  plainList,
} from '@palaver/contracts';
import type { IdentityCache } from '../../auth/identity-cache';
import type { TeamAvailability } from '../../availability/team-availability';
import type { GatewayDeps } from '../../gateway.deps';
import { sendJson } from '../../http/json-reply';
import type { Routes } from '../../http/routes';
import type { IdempotentRequests } from '../../idempotency/idempotent-requests';
import { created, ok } from '../../openapi/responses';
import type { VisitorReadCache } from '../../reads/visitor-read-cache';
import { answerAsked, type ReplyRequests } from '../../replies/ask-reply';
import { handoffTriggersOf } from '../../replies/handoff-triggers';
import { sendReply } from '../../replies/send-reply';
import { visitorOf } from './visitor-of';

export const conversationRoutes = (
  routes: Routes,
  deps: GatewayDeps,
  identity: IdentityCache,
  visitorReads: VisitorReadCache,
  replyRequests: ReplyRequests,
  idempotency: IdempotentRequests,
  team: TeamAvailability,
): void => {
  const { services } = deps;
  const visitors = routes.scope({ auth: 'session', tag: 'conversations' });

  visitors.post(
    '/v2/conversations',
    {
      summary: 'Start a conversation',
      body: CreateConversationBody,
      responses: created('The open conversation, with no messages', Conversation),
    },
    async ({ session, body, request }) => {
      const userAgent = request.headers['user-agent'];
      return visitorReads.forgetAfter(
        visitorOf(session),
        services.send(ConversationMessages.create, {
          pageUrl: body.context?.pageUrl ?? null,
          // The visitor's browser, for the inbox's visitor panel (personal data: sealed in the event).
          userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null,
          ...visitorOf(session),
        }),
      );
    },
  );

  visitors.get(
    '/v2/conversations',
    {
      summary: "The visitor's conversations in the project, each with its last message",
      query: ListConversationsQuery,
      responses: ok('List of conversations', pagedList(Conversation)),
    },
    async ({ session, query, reply }) => {
      const json = await visitorReads.readJson(visitorOf(session), `list\n${JSON.stringify(query)}`, () =>
        services.send(ConversationMessages.list, { query, ...visitorOf(session) }),
      );
      return sendJson(reply, json);
    },
  );

  visitors.get(
    '/v2/conversations/:conversationId',
    {
      summary: 'One conversation with its messages',
      responses: ok('Conversation', Conversation),
    },
    async ({ session, params, reply }) => {
      const json = await visitorReads.readJson(visitorOf(session), `get\n${params.conversationId}`, () =>
        services.send(ConversationMessages.get, { conversationId: params.conversationId, ...visitorOf(session) }),
      );
      return sendJson(reply, json);
    },
  );

  visitors.get(
    '/v2/conversations/:conversationId/messages',
    {
      summary: 'The messages of a conversation, oldest first',
      query: ListMessagesQuery,
      responses: ok('List of messages', plainList(Message)),
    },
    async ({ session, params, query, reply }) => {
      const json = await visitorReads.readJson(visitorOf(session), `messages\n${params.conversationId}\n${JSON.stringify(query)}`, () =>
        services.send(ConversationMessages.listMessages, { query, conversationId: params.conversationId, ...visitorOf(session) }),
      );
      return sendJson(reply, json);
    },
  );

  visitors.post(
    '/v2/conversations/:conversationId/messages',
    {
      summary: 'Send a message and get the reply (JSON, or the UI message stream with stream: true)',
      body: PostMessageBody,
      responses: {
        200: { description: 'The reply: a Chat completion result, or text/event-stream when stream is true', schema: ChatCompletionResult },
        202: { description: 'A human agent handles the conversation: the message is queued', mediaType: 'text/plain' },
      },
    },
    async ({ session, params, body, reply, request }) => {
      const project = await identity.project(session.projectId);
      // Read only for a project that lets visitors ask for a person (one KV read).
      const offlineNotice = await team.offlineNotice(project);
      const assistantMessageId = randomUUID();
      const asked = await replyRequests.ask(project, {
        replyId: assistantMessageId,
        stored: { projectId: session.projectId, conversationId: params.conversationId },
        settleOnFirstFragment: true,
        start: (replyTo) =>
          services.send(ConversationMessages.postMessage, {
            conversationId: params.conversationId,
            content: body.content,
            pageContext: body.pageContext ?? null,
            assistantMessageId,
            assistantId: session.assistantId,
            handoffTriggers: handoffTriggersOf(project),
            offlineNotice,
            replyTo,
            streamed: body.stream,
            ...visitorOf(session),
          }),
      });
      // The message is stored (its reply, once finished, is announced before its last fragment, on
      // the connection that brings the fragment).
      visitorReads.forget(visitorOf(session));
      await answerAsked(reply, asked, async (source, messageId) => {
        await sendReply(reply, source, { stream: body.stream, jsonStatus: 200, textId: messageId, messageId });
        // Once streaming: a repeat with the request's Idempotency-Key attaches to this reply.
        idempotency.noteReply(request, reply, {
          format: 'ui-message-stream',
          conversationId: params.conversationId,
          messageId,
          ...visitorOf(session),
        });
      });
    },
  );

  visitors.post(
    '/v2/conversations/:conversationId/close',
    {
      summary: 'Close a conversation (succeeds again when already closed)',
      body: CloseConversationBody,
      responses: ok('Confirmation', CloseConversationResponse),
    },
    async ({ session, params, body }) =>
      visitorReads.forgetAfter(
        visitorOf(session),
        services.send(ConversationMessages.close, {
          closeReason: body.closeReason ?? null,
          conversationId: params.conversationId,
          ...visitorOf(session),
        }),
      ),
  );

  visitors.post(
    '/v2/messages/:messageId/feedback',
    {
      summary: 'Like, dislike, or remove the feedback (null) of a reply',
      body: FeedbackBody,
      responses: ok('The stored feedback', FeedbackResponse),
    },
    async ({ session, params, body }) =>
      visitorReads.forgetAfter(
        visitorOf(session),
        services.send(ConversationMessages.setFeedback, {
          feedback: body.feedback,
          messageId: params.messageId,
          ...visitorOf(session),
        }),
      ),
  );
};
