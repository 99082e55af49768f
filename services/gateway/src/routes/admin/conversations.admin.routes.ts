import { Conversation, ConversationMessages, HumanAgent, Message, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const ConversationPath = z.object({ projectId: Uuid, conversationId: Uuid });
const HandoffBody = z.object({ humanAgent: HumanAgent });
const AgentMessageBody = z.object({ content: z.string().min(1).max(10_000) });

/** The agents' side, minimal for now: take a conversation over and answer in it. */
export const conversationAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: human agents' } as const;

  routes.add(
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/projects/:projectId/conversations/:conversationId/handoff',
      summary: 'Hand a conversation to a human agent: the AI stops answering it',
      params: ConversationPath,
      body: HandoffBody,
      responses: { 200: { description: 'Conversation', schema: Conversation } },
    },
    async ({ params, body }) => services.send(ConversationMessages.handoff, { ...params, humanAgent: body.humanAgent }),
  );

  routes.add(
    {
      ...admin,
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
