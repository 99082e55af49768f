import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serviceMetrics } from '../metrics/service-metrics';
import { dependenciesDown } from './dependencies';

export interface HealthServer {
  /** `http://host:port`, the port the server got (HEALTH_PORT 0 takes any free one). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * One process's own health, over HTTP on a port of its own, so that a probe reports the process
 * it asks and not whichever instance of the service answers a message on the bus:
 * - `GET /livez`: 200 while the process answers at all (its event loop turns). A process that is
 *   stopped or stuck does not answer, and a probe's timeout says so.
 * - `GET /readyz` (and `/healthz`): 200 when every connection it needs is up, else 503 naming the
 *   ones down (they reconnect by themselves: a reason to send no traffic, not to restart).
 * - `GET /metrics`: the process's service metrics (messages handled, jobs, webhook deliveries) for
 *   Prometheus. The port is meant for the cluster's probes and scrapers, not the public.
 */
export const startHealthServer = async (service: string, port: number, host: string): Promise<HealthServer> => {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: Record<string, unknown>) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify({ service, pid: process.pid, ...body }));
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, { status: 'method not allowed' });
    if (path === '/livez') return send(200, { status: 'ok' });
    if (path === '/readyz' || path === '/healthz') {
      const down = dependenciesDown();
      return down.length === 0 ? send(200, { status: 'ok' }) : send(503, { status: 'unavailable', down });
    }
    if (path === '/metrics') {
      const registry = serviceMetrics().registry;
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => send(500, { status: 'metrics failed' }),
      );
      return;
    }
    send(404, { status: 'not found' });
  });
  // A probe's connection is short; a stuck one should not keep the process from exiting.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
