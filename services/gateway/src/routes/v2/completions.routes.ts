import { randomUUID } from 'node:crypto';
import { ChatCompletionsBody, IdentityMessages, InferenceMessages } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { bearerOf, originOf } from '../../auth/bearer';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';
import type { MessageLimits } from '../../limits/message-limits';
import { requireFeature } from '../../limits/plan-gates';
import { ReplyListener } from '../../replies/reply-listener';
import { sendReply } from '../../replies/send-reply';

export const completionRoutes = (app: FastifyInstance, deps: GatewayDeps, limits: MessageLimits): void => {
  const { services } = deps;

  app.post('/v2/chat/completions', async (request, reply) => {
    const key = await services.send(IdentityMessages.resolveKey, {
      key: bearerOf(request),
      origin: originOf(request),
      type: 'private',
    });
    const body = parse(ChatCompletionsBody, request.body, 'body');
    const project = await services.send(IdentityMessages.getProject, { projectId: key.projectId });
    requireFeature(project, 'chat_completions');
    await limits.consume(project);
    const assistant = await services.send(IdentityMessages.getAssistant, {
      projectId: key.projectId,
      assistantId: body.assistantId ?? null,
    });

    const replyId = randomUUID();
    const listener = await ReplyListener.listen(deps.pubsub, replyId, deps.config.REPLY_TIMEOUT_MS);
    try {
      await services.send(InferenceMessages.startCompletion, {
        projectId: key.projectId,
        replyId,
        assistantId: assistant.id,
        messages: body.messages,
      });
    } catch (err) {
      await listener.close();
      throw err;
    }
    // The spec describes the non-streaming completion as returned with 202.
    await sendReply(reply, listener, { stream: body.stream, jsonStatus: 202, textId: replyId, messageId: null });
  });
};
