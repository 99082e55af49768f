import { AgentConversation, Conversation, ConversationMessages, HumanAgent, httpUrl, Message, nonBlank, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const ConversationPath = z.object({ projectId: Uuid, conversationId: Uuid });
const HandoffBody = z.object({
  humanAgent: HumanAgent.extend({ name: z.string().max(200).nullable(), image: httpUrl(2000).nullable() }).optional(),
});
const AgentMessageBody = z.object({ content: nonBlank(z.string().min(1).max(10_000)) });

/**
 * Admin calls on the human side of a conversation (kept from before the agents' API): with a
 * `humanAgent`, someone with no agent identity takes the conversation; without one, it joins the
 * handoff queue. Agents with identities use /agent/v1 (docs/agents-api.md).
 */
export const conversationAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: human agents' } as const;

  routes.add(
    {
      ...admin,
      permission: 'conversations.act',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/conversations/:conversationId/handoff',
      summary: 'Hand a conversation to the named human agent, or (no humanAgent) queue it for the agents: the AI stops answering it',
      params: ConversationPath,
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

  routes.add(
    {
      ...admin,
      permission: 'conversations.act',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/conversations/:conversationId/release',
      summary: 'Hand the conversation back to the assistant, whoever holds it',
      params: ConversationPath,
      responses: { 200: { description: 'Conversation', schema: AgentConversation } },
    },
    async ({ params, actor }) => services.send(ConversationMessages.release, { ...params, humanAgentId: null, actor }),
  );

  routes.add(
    {
      ...admin,
      permission: 'conversations.act',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/conversations/:conversationId/messages',
      summary: "Post the human agent's message",
      params: ConversationPath,
      body: AgentMessageBody,
      responses: { 201: { description: 'Message', schema: Message } },
    },
    async ({ params, body, reply }) =>
      reply.status(201).send(await services.send(ConversationMessages.postAgentMessage, { ...params, content: body.content })),
  );
};
