import { AgentRecord, CreateAgentBody, CreatedAgent, IdentityMessages, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const ProjectPath = z.object({ projectId: Uuid });
const AgentPath = z.object({ projectId: Uuid, agentId: Uuid });

/** The project's human agents: each gets an `ak_…` token for the agents' API, shown once. */
export const agentAdminRoutes = (routes: Routes, { services }: GatewayDeps, identity: IdentityCache): void => {
  const admin = { auth: 'admin', tag: 'admin: human agents' } as const;

  routes.add(
    {
      ...admin,
      permission: 'agents.manage',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/agents',
      summary: 'Add a human agent; the answer holds its token, shown only this once',
      params: ProjectPath,
      body: CreateAgentBody,
      responses: { 201: { description: 'The agent with its token', schema: CreatedAgent } },
    },
    async ({ params, body, actor, reply }) =>
      reply.status(201).send(await services.send(IdentityMessages.createAgent, { ...params, actor, body })),
  );

  routes.add(
    {
      ...admin,
      permission: 'agents.manage',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/agents',
      summary: "The project's agents (never their tokens)",
      params: ProjectPath,
      responses: { 200: { description: 'Agents', schema: z.object({ data: z.array(AgentRecord) }) } },
    },
    async ({ params }) => services.send(IdentityMessages.listAgents, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'agents.manage',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/agents/:agentId',
      summary: 'Revoke an agent: its token and live feeds stop at once, what it held goes back to the assistant (idempotent)',
      params: AgentPath,
      responses: { 200: { description: 'The revoked agent', schema: AgentRecord } },
    },
    async ({ params, actor }) => {
      const agent = await services.send(IdentityMessages.revokeAgent, { ...params, actor });
      // Identity announces it to every gateway; this one applies it before answering, whatever the pub/sub latency.
      identity.apply({ kind: 'agent-revoked', ...params });
      return agent;
    },
  );
};
