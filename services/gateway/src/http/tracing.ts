import FastifyOtelInstrumentation from '@fastify/otel';
import { tracingEnabled } from '@palaver/platform';
import type { FastifyInstance } from 'fastify';

/**
 * Each request's span, `gateway <METHOD> <route>`, continuing a caller's W3C trace context, by
 * @fastify/otel; the services' spans become its children through the bus's headers. Nothing is
 * registered when the process does not trace.
 */
export const registerTracing = async (app: FastifyInstance): Promise<void> => {
  if (!tracingEnabled()) return;
  const instrumentation = new FastifyOtelInstrumentation({
    registerOnInitialization: false,
    ignorePaths: (route) => route.url === '/livez' || route.url === '/readyz' || route.url === '/metrics',
    requestHook: (span, request) => span.updateName(`gateway ${request.method} ${request.routeOptions.url ?? 'unknown route'}`),
  });
  await app.register(instrumentation.plugin());
};
