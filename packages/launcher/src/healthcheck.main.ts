import 'reflect-metadata';
import { ServiceHealthMessages } from '@palaver/contracts';
import { createInfrastructure, loadConfig } from '@palaver/platform';

/**
 * A container health check: `node dist/healthcheck.js <service>` exits 0 when the service answers
 * its health message over NATS within 2 s (it answers SERVICE_UNAVAILABLE while one of its own
 * connections is down), 1 otherwise; `gateway` asks the gateway's /healthz on PORT.
 */
const HEALTH = ServiceHealthMessages;

const service = process.argv[2] ?? '';
const config = loadConfig();

const healthy = async (): Promise<boolean> => {
  if (service === 'gateway') {
    const response = await fetch(`http://127.0.0.1:${config.PORT}/healthz`, { signal: AbortSignal.timeout(3_000) });
    return response.ok;
  }
  const message = HEALTH[service as keyof typeof HEALTH];
  if (!message) throw new Error(`unknown service "${service}": one of gateway, ${Object.keys(HEALTH).join(', ')}`);
  const infra = await createInfrastructure(config, { only: [] });
  try {
    await infra.services.send(message, {}, { timeoutMs: 2_000 });
    return true;
  } finally {
    await infra.close();
  }
};

const ok = await healthy().catch((err: unknown) => {
  console.error(`${service}: ${(err as Error).message}`);
  return false;
});
process.exit(ok ? 0 : 1);
