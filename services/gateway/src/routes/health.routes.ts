import {
  AnalyticsMessages,
  ConversationMessages,
  IdentityMessages,
  InferenceMessages,
  SearchMessages,
} from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway.deps';

const SERVICES = {
  identity: IdentityMessages.health,
  conversation: ConversationMessages.health,
  search: SearchMessages.health,
  inference: InferenceMessages.health,
  analytics: AnalyticsMessages.health,
} as const;

/** Ready when every service answers over the transport. */
export const healthRoutes = (app: FastifyInstance, { services }: GatewayDeps): void => {
  app.get('/healthz', async (_request, reply) => {
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
  });
};
