import 'reflect-metadata';
import { loadConfig } from '@palaver/platform';

/**
 * A container health check: `node dist/healthcheck.js <service>` exits 0 when this container's own
 * process answers ready (200) within 2 s (the gateway 3 s), 1 otherwise: a service process on its health server
 * (HEALTH_PORT, `/readyz`: 503 while one of its own connections is down; no answer when it is
 * stopped or stuck), the gateway on its `/healthz` (PORT). Each check reports the process it asks,
 * never another instance of the same service.
 */
const SERVICES = ['gateway', 'identity', 'conversation', 'search', 'inference', 'analytics'];

const service = process.argv[2] ?? '';
const config = loadConfig();

/** The address to ask: the one the process listens on, or this host when it listens on every one. */
const host = ['0.0.0.0', '::', ''].includes(config.HOST) ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;

const healthy = async (): Promise<boolean> => {
  if (!SERVICES.includes(service)) throw new Error(`unknown service "${service}": one of ${SERVICES.join(', ')}`);
  const url = service === 'gateway' ? `http://${host}:${config.PORT}/healthz` : `http://${host}:${config.HEALTH_PORT}/readyz`;
  // The gateway's /healthz asks every service, each within 2 s.
  const response = await fetch(url, { signal: AbortSignal.timeout(service === 'gateway' ? 3_000 : 2_000) });
  if (!response.ok) console.error(`${service}: ${response.status} ${await response.text()}`);
  return response.ok;
};

const ok = await healthy().catch((err: unknown) => {
  console.error(`${service}: ${(err as Error).message}`);
  return false;
});
process.exit(ok ? 0 : 1);
