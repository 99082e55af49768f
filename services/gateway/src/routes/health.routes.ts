import { ServiceHealthMessages } from '@palaver/contracts';
import { dependenciesDown } from '@palaver/platform';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { GatewayDeps } from '../gateway.deps';
import type { Routes } from '../http/routes';
import { ok } from '../openapi/responses';

const SERVICES = ServiceHealthMessages;

const Liveness = z.object({ status: z.literal('ok') });
const Readiness = z.object({ status: z.enum(['ok', 'unavailable']), down: z.array(z.string()) });

const Health = z.object({ status: z.enum(['ok', 'unavailable']), services: z.record(z.string(), z.enum(['ok', 'unavailable'])) });

/** A readiness probe's two answers, with the body they share. */
const readinessResponses = (schema: z.ZodType) => ({
  200: { description: 'Ready', schema },
  503: { description: 'Not ready', schema },
});

/** 200 `ok` when ready, else 503 `unavailable`, with what was found. */
const answerReadiness = (reply: FastifyReply, ready: boolean, found: object) =>
  reply.status(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', ...found });

/** A service that does not answer within this is reported unavailable (NATS down, overloaded). */
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * `/livez` and `/readyz` report this gateway process alone (its event loop, its own connections),
 * for probes that must not restart or drain a gateway because another service is down;
 * `/healthz` reports the whole product: ready when every service answers over the transport and
 * this gateway's own connections are up.
 */
export const healthRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const probes = routes.scope({ auth: 'none', tag: 'operations' });

  probes.get(
    '/livez',
    {
      summary: 'Liveness of this gateway process: 200 while it answers',
      responses: ok('Alive', Liveness),
    },
    async ({ reply }) => reply.send({ status: 'ok' }),
  );

  probes.get(
    '/readyz',
    {
      summary: 'Readiness of this gateway process: 200 while its own connections (NATS, Redis) are up, else 503',
      responses: readinessResponses(Readiness),
    },
    async ({ reply }) => {
      const down = dependenciesDown();
      return answerReadiness(reply, down.length === 0, { down });
    },
  );

  probes.get(
    '/healthz',
    {
      summary: 'Readiness: 200 when every service answers, else 503',
      responses: readinessResponses(Health),
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
      return answerReadiness(reply, ready, { services: Object.fromEntries(checks) });
    },
  );
};
