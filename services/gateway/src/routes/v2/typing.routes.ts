import { ConversationMessages } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { noContent } from '../../openapi/responses';
import type { TypingHub } from '../../typing/typing-hub';
import { visitorOf } from './visitor-of';

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
      idempotent: false,
      responses: noContent('Sent (or dropped)'),
    },
    async ({ session, params }) => {
      // The visitor's own conversation (403 for another's, 404 for none), read before a slot is taken.
      const conversation = await services.send(ConversationMessages.get, { ...visitorOf(session), conversationId: params.conversationId });
      // Nobody but the AI would see it otherwise: agents' feeds carry only conversations a person handles.
      if (conversation.isHumanHandled && conversation.status === 'open' && typing.accept(params.conversationId, 'visitor')) {
        await typing.publish(session.projectId, {
          type: 'typing',
          occurredAt: clock.now().toISOString(),
          conversationId: params.conversationId,
          by: 'visitor',
        });
      }
    },
  );
};
