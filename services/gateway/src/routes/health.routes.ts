import { ServiceHealthMessages } from '@palaver/contracts';
import { dependenciesDown } from '@palaver/platform';
import { z } from 'zod';
import type { GatewayDeps } from '../gateway.deps';
import type { Routes } from '../http/routes';

const SERVICES = ServiceHealthMessages;

const Liveness = z.object({ status: z.literal('ok') });
const Readiness = z.object({ status: z.enum(['ok', 'unavailable']), down: z.array(z.string()) });

const Health = z.object({ status: z.enum(['ok', 'unavailable']), services: z.record(z.string(), z.enum(['ok', 'unavailable'])) });

/** A service that does not answer within this is reported unavailable (NATS down, overloaded). */
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * `/livez` and `/readyz` report this gateway process alone (its event loop, its own connections),
 * for probes that must not restart or drain a gateway because another service is down;
 * `/healthz` reports the whole product: ready when every service answers over the transport and
 * this gateway's own connections are up.
 */
export const healthRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  routes.add(
    {
      method: 'GET',
      url: '/livez',
      summary: 'Liveness of this gateway process: 200 while it answers',
      tag: 'operations',
      auth: 'none',
      responses: { 200: { description: 'Alive', schema: Liveness } },
    },
    async ({ reply }) => reply.send({ status: 'ok' }),
  );
  routes.add(
    {
      method: 'GET',
      url: '/readyz',
      summary: 'Readiness of this gateway process: 200 while its own connections (NATS, Redis) are up, else 503',
      tag: 'operations',
      auth: 'none',
      responses: { 200: { description: 'Ready', schema: Readiness }, 503: { description: 'Not ready', schema: Readiness } },
    },
    async ({ reply }) => {
      const down = dependenciesDown();
      return reply.status(down.length === 0 ? 200 : 503).send({ status: down.length === 0 ? 'ok' : 'unavailable', down });
    },
  );
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
            await services.send(message, {}, { timeoutMs: HEALTH_TIMEOUT_MS });
            return [name, 'ok'] as const;
          } catch {
            return [name, 'unavailable'] as const;
          }
        }),
      );
      checks.push(['gateway', dependenciesDown().length === 0 ? 'ok' : 'unavailable']);
      const ready = checks.every(([, state]) => state === 'ok');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', services: Object.fromEntries(checks) });
    },
  );
};
