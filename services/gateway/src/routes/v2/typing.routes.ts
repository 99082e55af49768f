import { ConversationMessages, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import type { TypingHub } from '../../typing/typing-hub';

const ConversationPath = z.object({ conversationId: Uuid });

/** Extension: the visitor tells the agent they are typing (ephemeral, docs/agents-api.md). */
export const typingRoutes = (routes: Routes, { services, clock }: GatewayDeps, typing: TypingHub): void => {
  routes.add(
    {
      method: 'POST',
      url: '/v2/conversations/:conversationId/typing',
      summary:
        'Tell the agent the visitor is typing (for TYPING_TTL_MS; reaches agents only while a person handles the conversation; at most one per 2 s, extras dropped). Extension',
      tag: 'conversations',
      auth: 'session',
      params: ConversationPath,
      idempotent: false,
      responses: { 204: { description: 'Sent (or dropped)' } },
    },
    async ({ session, params, reply }) => {
      // The visitor's own conversation (403 for another's, 404 for none), read before a slot is taken.
      const conversation = await services.send(ConversationMessages.get, {
        projectId: session.projectId,
        visitorId: session.visitorId,
        conversationId: params.conversationId,
      });
      // Nobody but the AI would see it otherwise: agents' feeds carry only conversations a person handles.
      if (conversation.isHumanHandled && conversation.status === 'open' && typing.accept(params.conversationId, 'visitor')) {
        await typing.publish(session.projectId, {
          type: 'typing',
          occurredAt: clock.now().toISOString(),
          conversationId: params.conversationId,
          by: 'visitor',
        });
      }
      return reply.status(204).send();
    },
  );
};
