import { registryOf, serviceMetrics } from '@palaver/platform';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of this gateway instance: requests by route and status, their latency,
 * and the process's own (memory, event loop lag, GC). Streamed replies count when they start.
 * The process's service metrics (messages, jobs, deliveries: all of them when embedded) are served
 * with them, in the same format (OpenMetrics when the process traces).
 */
export const registerMetrics = (app: FastifyInstance): Registry => {
  const services = serviceMetrics().registry;
  const registry = registryOf(services.contentType);
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'palaver_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'palaver_http_request_duration_seconds',
    help: 'Time to the response head, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  // Callback-style, as the CORS and timeout hooks: an async hook costs every request a promise and a turn.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
  return Registry.merge([registry, services]);
};
