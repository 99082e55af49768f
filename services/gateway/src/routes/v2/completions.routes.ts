import { randomUUID } from 'node:crypto';
import { ChatCompletionResult, ChatCompletionsBody, IdentityMessages, InferenceMessages } from '@palaver/contracts';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { requireFeature } from '../../limits/plan-gates';
import { answerAsked, type ReplyRequests, replyFollows } from '../../replies/ask-reply';
import { sendReply } from '../../replies/send-reply';

export const completionRoutes = (routes: Routes, deps: GatewayDeps, identity: IdentityCache, replyRequests: ReplyRequests): void => {
  const { services } = deps;

  routes.add(
    {
      method: 'POST',
      url: '/v2/chat/completions',
      summary: "A chat completion with the assistant's instructions and the project's knowledge (pro plan)",
      tag: 'completions',
      auth: 'privateKey',
      body: ChatCompletionsBody,
      responses: {
        202: { description: 'Chat completion result (stream false)', schema: ChatCompletionResult },
        200: { description: 'The UI message stream (stream true)', mediaType: 'text/event-stream' },
      },
    },
    async ({ key, body, reply }) => {
      const project = await identity.project(key.projectId);
      requireFeature(project, 'chat_completions');
      const assistant = await services.send(IdentityMessages.getAssistant, {
        projectId: key.projectId,
        assistantId: body.assistantId ?? null,
      });
      const replyId = randomUUID();
      const asked = await replyRequests.ask(project, {
        replyId,
        stored: null,
        settleOnFirstFragment: false,
        start: (replyTo) =>
          services
            .send(InferenceMessages.startCompletion, {
              projectId: key.projectId,
              replyId,
              assistantId: assistant.id,
              messages: body.messages,
              replyTo,
              streamed: body.stream,
            })
            .then(replyFollows),
      });
      // The spec describes the non-streaming completion as returned with 202.
      await answerAsked(reply, asked, (source) =>
        sendReply(reply, source, { stream: body.stream, jsonStatus: 202, textId: replyId, messageId: null }),
      );
    },
  );
};
