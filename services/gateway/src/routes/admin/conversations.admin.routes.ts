import { AgentConversation, Conversation, ConversationMessages, HumanAgent, httpUrl, Message, nonBlank } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { created, ok } from '../../openapi/responses';

const HandoffBody = z.object({
  humanAgent: HumanAgent.extend({ name: z.string().max(200).nullable(), image: httpUrl(2000).nullable() }).optional(),
});
const AgentMessageBody = z.object({ content: nonBlank(z.string().min(1).max(10_000)) });

/**
 * Admin calls on the human side of a conversation (kept from before the agents' API): with a
 * `humanAgent`, someone with no agent identity takes the conversation; without one, it joins the
 * handoff queue. Agents with identities use /agent/v1 (docs/agents-api.md).
 */
export const conversationAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  admin.post(
    '/admin/v1/projects/:projectId/conversations/:conversationId/handoff',
    {
      permission: 'conversations.act',
      summary: 'Hand a conversation to the named human agent, or (no humanAgent) queue it for the agents: the AI stops answering it',
      body: HandoffBody,
      responses: {
        200: {
          description: 'The conversation (v2 shape) when handed to a named agent; its queue view when queued',
          schema: z.union([Conversation, AgentConversation]),
        },
      },
    },
    async ({ params, body, actor }) =>
      body.humanAgent
        ? services.send(ConversationMessages.handoff, { ...params, humanAgent: body.humanAgent, actor })
        : services.send(ConversationMessages.requestHandoff, { ...params, source: 'admin', actor }),
  );

  admin.post(
    '/admin/v1/projects/:projectId/conversations/:conversationId/release',
    {
      permission: 'conversations.act',
      summary: 'Hand the conversation back to the assistant, whoever holds it',
      responses: ok('Conversation', AgentConversation),
    },
    async ({ params, actor }) => services.send(ConversationMessages.release, { ...params, humanAgentId: null, actor }),
  );

  admin.post(
    '/admin/v1/projects/:projectId/conversations/:conversationId/messages',
    {
      permission: 'conversations.act',
      summary: "Post the human agent's message",
      body: AgentMessageBody,
      responses: created('Message', Message),
    },
    async ({ params, body }) => services.send(ConversationMessages.postAgentMessage, { ...params, content: body.content }),
  );
};
