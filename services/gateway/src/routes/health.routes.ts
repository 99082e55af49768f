import {
  AnalyticsMessages,
  ConversationMessages,
  IdentityMessages,
  InferenceMessages,
  SearchMessages,
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../gateway.deps';
import type { Routes } from '../http/routes';

const SERVICES = {
  identity: IdentityMessages.health,
  conversation: ConversationMessages.health,
  search: SearchMessages.health,
  inference: InferenceMessages.health,
  analytics: AnalyticsMessages.health,
} as const;

const Health = z.object({ status: z.enum(['ok', 'unavailable']), services: z.record(z.string(), z.enum(['ok', 'unavailable'])) });

/** Ready when every service answers over the transport. */
export const healthRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  routes.add(
    {
      method: 'GET',
      url: '/healthz',
      summary: 'Readiness: 200 when every service answers, else 503',
      tag: 'operations',
      auth: 'none',
      responses: { 200: { description: 'Ready', schema: Health }, 503: { description: 'Not ready', schema: Health } },
    },
    async ({ reply }) => {
      const checks = await Promise.all(
        Object.entries(SERVICES).map(async ([name, message]) => {
          try {
            await services.send(message, {});
            return [name, 'ok'] as const;
          } catch {
            return [name, 'unavailable'] as const;
          }
        }),
      );
      const ready = checks.every(([, state]) => state === 'ok');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', services: Object.fromEntries(checks) });
    },
  );
};
