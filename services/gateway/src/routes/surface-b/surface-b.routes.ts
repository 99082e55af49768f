import { randomUUID } from 'node:crypto';
import {
  AppError,
  AppUserId,
  Chat,
  ChatPostBody,
  ChatSummary,
  ChatsQuery,
  ConversationMessages,
  Customer,
  IdentityMessages,
  QnaSummary,
  QnasQuery,
  SearchMessages,
  SurfaceBProject,
  surfaceBPage,
  UpsertCustomerBody,
  Uuid,
} from '@palaver/contracts';
import { z } from 'zod';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import type { IdempotentRequests } from '../../idempotency/idempotent-requests';
import { answerAsked, type ReplyRequests, replyFollows } from '../../replies/ask-reply';
import { handoffTriggersOf } from '../../replies/handoff-triggers';
import { sendPlainTextReply } from '../../replies/plain-text-reply';
import type { ReplySource } from '../../replies/send-reply';

const CustomerPath = z.object({ appUserId: AppUserId });
const ChatPath = CustomerPath.extend({ chatId: Uuid });
const TAG = 'surface B';
const conversationNotThere = (chatId: string): AppError =>
  new AppError('CONVERSATION_NOT_FOUND', 'Conversation not found', { conversationId: chatId });

/** A message's text, its parts joined: the bound of a v2 message's `content`. */
const MAX_CONTENT = 10_000;

/**
 * Surface B (the header-key surface) under `SURFACE_B_BASE` (default `/api`): every call with
 * `x-service-key: sk_…`. Customers are the project's identified visitors, so their chats are
 * the same conversations v2 shows (docs/surface-b.md).
 */
export const surfaceBRoutes = (
  routes: Routes,
  deps: GatewayDeps,
  identity: IdentityCache,
  replyRequests: ReplyRequests,
  idempotency: IdempotentRequests,
): void => {
  const { services } = deps;
  const base = deps.config.SURFACE_B_BASE;
  const keyed = { auth: 'serviceKey', tag: TAG } as const;

  /** The customer's visitor id; NOT_FOUND for an appUserId the project has never seen, unless `create`. */
  const customerOf = async (projectId: string, appUserId: string, create: boolean): Promise<string> => {
    try {
      return (await services.send(IdentityMessages.getCustomer, { projectId, appUserId })).id;
    } catch (err) {
      if (!create || !(err instanceof AppError) || err.code !== 'NOT_FOUND') throw err;
      return (await services.send(IdentityMessages.upsertCustomer, { projectId, appUserId, body: {} })).id;
    }
  };

  routes.add(
    {
      ...keyed,
      method: 'GET',
      url: `${base}/get-project`,
      summary: 'The project with its chat widget configuration and quick prompts',
      responses: { 200: { description: 'Project', schema: SurfaceBProject } },
    },
    async ({ key }) => SurfaceBProject.parse(await identity.project(key.projectId)),
  );

  routes.add(
    {
      ...keyed,
      method: 'POST',
      url: `${base}/customers/:appUserId`,
      summary: 'Create or update a customer (an identified visitor; attributes merge key by key)',
      params: CustomerPath,
      body: UpsertCustomerBody,
      responses: { 200: { description: 'Customer', schema: Customer } },
    },
    async ({ key, params, body }) =>
      services.send(IdentityMessages.upsertCustomer, { projectId: key.projectId, appUserId: params.appUserId, body }),
  );

  routes.add(
    {
      ...keyed,
      method: 'GET',
      url: `${base}/customers/:appUserId/chats`,
      summary: "The customer's chats, latest interaction first (pageSize 1-100, default 10)",
      params: CustomerPath,
      query: ChatsQuery,
      responses: { 200: { description: 'A page of chat summaries', schema: surfaceBPage(ChatSummary) } },
    },
    async ({ key, params, query }) => {
      const visitorId = await customerOf(key.projectId, params.appUserId, false);
      return services.send(ConversationMessages.chats, { projectId: key.projectId, visitorId, ...query });
    },
  );

  routes.add(
    {
      ...keyed,
      method: 'GET',
      url: `${base}/customers/:appUserId/chats/:chatId`,
      summary: "One of the customer's chats with its messages (another customer's: 404)",
      params: ChatPath,
      responses: { 200: { description: 'Chat', schema: Chat } },
    },
    async ({ key, params }) => {
      const visitorId = await customerOf(key.projectId, params.appUserId, false);
      return services.send(ConversationMessages.chat, { projectId: key.projectId, visitorId, chatId: params.chatId });
    },
  );

  routes.add(
    {
      ...keyed,
      method: 'POST',
      url: `${base}/customers/:appUserId/chats/:chatId/chat`,
      summary: 'Send a message (the chat is created on first use) and get the reply as plain text (streaming) or a JSON string',
      params: ChatPath,
      body: ChatPostBody,
      responses: {
        200: { description: 'The reply: text/plain stream (streaming: true) or a JSON string', schema: z.string() },
        202: { description: 'A human agent handles the chat: the message is queued', mediaType: 'text/plain' },
      },
    },
    async ({ key, params, body, reply, request }) => {
      const content = body.message.parts.map((part) => part.text).join('\n');
      // Checked before anything is stored: a refused message leaves no chat behind.
      if (body.messageId == null && content.trim().length === 0) {
        throw new AppError('VALIDATION_ERROR', '"message.parts" must hold some text', { field: 'message.parts', reason: 'empty message' });
      }
      if (body.messageId == null && content.length > MAX_CONTENT) {
        throw new AppError('VALIDATION_ERROR', `"message.parts" hold more than ${MAX_CONTENT} characters together`, {
          field: 'message.parts',
          reason: `the parts, joined by line breaks, are ${content.length} characters long (at most ${MAX_CONTENT})`,
        });
      }
      const project = await identity.project(key.projectId);
      // A regenerate names a message of an existing chat: it creates neither the customer nor the chat.
      const visitorId = await customerOf(key.projectId, params.appUserId, body.messageId == null);
      const scope = { projectId: key.projectId, visitorId, conversationId: params.chatId };
      const pageUrl = body.pageUrl ?? null;
      const history = body.previousMessages ?? undefined;

      const write = (source: ReplySource, messageId: string) => {
        // Once streaming: a repeat with the request's Idempotency-Key attaches to this reply.
        const noted = () => idempotency.noteReply(request, reply, { format: 'plain-text', messageId, ...scope });
        return sendPlainTextReply(reply, source, body.streaming, noted);
      };

      if (body.messageId != null) {
        const messageId = body.messageId;
        const asked = await replyRequests.ask(project, {
          replyId: messageId,
          stored: { projectId: key.projectId, conversationId: params.chatId },
          settleOnFirstFragment: false,
          start: (replyTo) =>
            services
              .send(ConversationMessages.regenerateReply, {
                ...scope,
                messageId,
                assistantId: key.assistantId,
                history,
                replyTo,
                streamed: body.streaming,
              })
              .then(replyFollows, (err: unknown) => {
                // Another customer's chat is not there for this one (as a read of it answers).
                if (err instanceof AppError && err.code === 'FORBIDDEN') throw conversationNotThere(params.chatId);
                throw err;
              }),
        });
        return answerAsked(reply, asked, write);
      }

      const assistantMessageId = randomUUID();
      const pageContext =
        pageUrl === null && body.pageContent == null
          ? null
          : { ...(pageUrl ? { url: pageUrl } : {}), ...(body.pageContent ? { content: body.pageContent } : {}) };
      const asked = await replyRequests.ask(project, {
        replyId: assistantMessageId,
        stored: { projectId: key.projectId, conversationId: params.chatId },
        settleOnFirstFragment: true,
        // Within the limits, so a message refused by them (429) creates no chat either.
        before: () =>
          services.send(ConversationMessages.create, { projectId: key.projectId, visitorId, conversationId: params.chatId, pageUrl }),
        start: (replyTo) =>
          services.send(ConversationMessages.postMessage, {
            ...scope,
            content,
            pageContext,
            assistantMessageId,
            assistantId: key.assistantId,
            handoffTriggers: handoffTriggersOf(project),
            history,
            replyTo,
            streamed: body.streaming,
          }),
      });
      await answerAsked(reply, asked, write);
    },
  );

  routes.add(
    {
      ...keyed,
      method: 'GET',
      url: `${base}/qnas`,
      summary: "The project's Q&A entries (title = question; query ≤ 100 chars on the question)",
      query: QnasQuery,
      responses: { 200: { description: 'A page of Q&A summaries', schema: surfaceBPage(QnaSummary) } },
    },
    async ({ key, query }) => {
      const list = await services.send(SearchMessages.listQnas, {
        projectId: key.projectId,
        query: { query: query.query, limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
      });
      return {
        data: list.data.map((qna) => ({ id: qna.id, title: qna.question, createdAt: qna.createdAt, updatedAt: qna.updatedAt })),
        page: query.page,
        pageSize: query.pageSize,
        totalPages: Math.ceil(list.total / query.pageSize),
      };
    },
  );
};
