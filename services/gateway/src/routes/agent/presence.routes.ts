import { Presence, PresenceBody } from '@palaver/contracts';
import type { AgentPresence } from '../../availability/agent-presence';
import type { Routes } from '../../http/routes';

/** `PUT /agent/v1/presence`: the agent says it is online (for PRESENCE_TTL_SECONDS, renewed by its live feed) or away. */
export const presenceRoutes = (routes: Routes, presence: AgentPresence): void => {
  routes.add(
    {
      auth: 'agent',
      tag: 'agents',
      method: 'PUT',
      url: '/agent/v1/presence',
      summary:
        'Online or away. Online lasts 2 minutes unless renewed by another PUT or by an open GET /agent/v1/events; visitors asking for a person while nobody is online are told so (docs/agents-api.md)',
      body: PresenceBody,
      responses: { 200: { description: 'The presence now', schema: Presence } },
    },
    async ({ agent, body }) => presence.set(agent, body.status),
  );
};
