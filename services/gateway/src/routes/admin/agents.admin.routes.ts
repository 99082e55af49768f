import { AgentRecord, CreateAgentBody, CreatedAgent, IdentityMessages } from '@palaver/contracts';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { created, dataList, ok } from '../../openapi/responses';

/** The project's human agents: each gets an `ak_…` token for the agents' API, shown once. */
export const agentAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps, identity: IdentityCache): void => {
  admin.post(
    '/admin/v1/projects/:projectId/agents',
    {
      permission: 'agents.manage',
      summary: 'Add a human agent; the answer holds its token, shown only this once',
      body: CreateAgentBody,
      responses: created('The agent with its token', CreatedAgent),
    },
    async ({ params, body, actor }) => services.send(IdentityMessages.createAgent, { ...params, actor, body }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/agents',
    {
      permission: 'agents.manage',
      summary: "The project's agents (never their tokens)",
      responses: ok('Agents', dataList(AgentRecord)),
    },
    async ({ params }) => services.send(IdentityMessages.listAgents, params),
  );

  admin.delete(
    '/admin/v1/projects/:projectId/agents/:agentId',
    {
      permission: 'agents.manage',
      summary: 'Revoke an agent: its token and live feeds stop at once, what it held goes back to the assistant (idempotent)',
      responses: ok('The revoked agent', AgentRecord),
    },
    async ({ params, actor }) => {
      const agent = await services.send(IdentityMessages.revokeAgent, { ...params, actor });
      // Identity announces it to every gateway; this one applies it before answering, whatever the pub/sub latency.
      identity.apply({ kind: 'agent-revoked', ...params });
      return agent;
    },
  );
};
