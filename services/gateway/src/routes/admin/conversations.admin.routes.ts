import { ConversationMessages, HumanAgent, Uuid } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';

const ConversationPath = z.object({ projectId: Uuid, conversationId: Uuid });
const HandoffBody = z.object({ humanAgent: HumanAgent });
const AgentMessageBody = z.object({ content: z.string().min(1).max(10_000) });

/** The agents' side, minimal for now: take a conversation over and answer in it. */
export const conversationAdminRoutes = (app: FastifyInstance, { services }: GatewayDeps): void => {
  app.post('/admin/v1/projects/:projectId/conversations/:conversationId/handoff', async (request) => {
    const path = parse(ConversationPath, request.params, 'path');
    const { humanAgent } = parse(HandoffBody, request.body, 'body');
    return services.send(ConversationMessages.handoff, { ...path, humanAgent });
  });

  app.post('/admin/v1/projects/:projectId/conversations/:conversationId/messages', async (request, reply) => {
    const path = parse(ConversationPath, request.params, 'path');
    const { content } = parse(AgentMessageBody, request.body, 'body');
    return reply.status(201).send(await services.send(ConversationMessages.postAgentMessage, { ...path, content }));
  });
};
