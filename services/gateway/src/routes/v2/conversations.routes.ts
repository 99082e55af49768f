import { randomUUID } from 'node:crypto';
import {
  CloseConversationBody,
  ConversationMessages,
  CreateConversationBody,
  FeedbackBody,
  IdentityMessages,
  ListConversationsQuery,
  ListMessagesQuery,
  PostMessageBody,
  Uuid,
} from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { visitorSession } from '../../auth/visitor-session';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';
import type { MessageLimits } from '../../limits/message-limits';
import { ReplyListener } from '../../replies/reply-listener';
import { sendReply } from '../../replies/send-reply';

const ConversationPath = z.object({ conversationId: Uuid });
const MessagePath = z.object({ messageId: Uuid });

export const conversationRoutes = (app: FastifyInstance, deps: GatewayDeps, limits: MessageLimits): void => {
  const { services } = deps;

  app.post('/v2/conversations', async (request, reply) => {
    const session = await visitorSession(deps, request);
    const body = parse(CreateConversationBody, request.body, 'body');
    const conversation = await services.send(ConversationMessages.create, {
      projectId: session.projectId,
      visitorId: session.visitorId,
      pageUrl: body.context?.pageUrl ?? null,
    });
    return reply.status(201).send(conversation);
  });

  app.get('/v2/conversations', async (request) => {
    const session = await visitorSession(deps, request);
    const query = parse(ListConversationsQuery, request.query, 'query');
    return services.send(ConversationMessages.list, { projectId: session.projectId, visitorId: session.visitorId, query });
  });

  app.get('/v2/conversations/:conversationId', async (request) => {
    const session = await visitorSession(deps, request);
    const { conversationId } = parse(ConversationPath, request.params, 'path');
    return services.send(ConversationMessages.get, { ...scope(session), conversationId });
  });

  app.get('/v2/conversations/:conversationId/messages', async (request) => {
    const session = await visitorSession(deps, request);
    const { conversationId } = parse(ConversationPath, request.params, 'path');
    const query = parse(ListMessagesQuery, request.query, 'query');
    return services.send(ConversationMessages.listMessages, { ...scope(session), conversationId, query });
  });

  app.post('/v2/conversations/:conversationId/messages', async (request, reply) => {
    const session = await visitorSession(deps, request);
    const { conversationId } = parse(ConversationPath, request.params, 'path');
    const body = parse(PostMessageBody, request.body, 'body');
    const project = await services.send(IdentityMessages.getProject, { projectId: session.projectId });
    await limits.consume(project);

    const assistantMessageId = randomUUID();
    const listener = await ReplyListener.listen(deps.pubsub, assistantMessageId, deps.config.REPLY_TIMEOUT_MS);
    let outcome;
    try {
      outcome = await services.send(ConversationMessages.postMessage, {
        ...scope(session),
        conversationId,
        content: body.content,
        pageContext: body.pageContext ?? null,
        assistantMessageId,
        assistantId: session.assistantId,
      });
    } catch (err) {
      await listener.close();
      throw err;
    }
    if (outcome.kind === 'queued') {
      await listener.close();
      return reply.status(202).type('text/plain; charset=utf-8').send('Message received: a human agent will answer.');
    }
    await sendReply(reply, listener, {
      stream: body.stream,
      jsonStatus: 200,
      textId: assistantMessageId,
      messageId: assistantMessageId,
    });
  });

  app.post('/v2/conversations/:conversationId/close', async (request) => {
    const session = await visitorSession(deps, request);
    const { conversationId } = parse(ConversationPath, request.params, 'path');
    const body = parse(CloseConversationBody, request.body, 'body');
    return services.send(ConversationMessages.close, {
      ...scope(session),
      conversationId,
      closeReason: body.closeReason ?? null,
    });
  });

  app.post('/v2/messages/:messageId/feedback', async (request) => {
    const session = await visitorSession(deps, request);
    const { messageId } = parse(MessagePath, request.params, 'path');
    const body = parse(FeedbackBody, request.body, 'body');
    return services.send(ConversationMessages.setFeedback, { ...scope(session), messageId, feedback: body.feedback });
  });
};

const scope = (session: { projectId: string; visitorId: string }) => ({
  projectId: session.projectId,
  visitorId: session.visitorId,
});
