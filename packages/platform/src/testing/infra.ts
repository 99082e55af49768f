import { connect } from 'node:net';

export type InfraService = 'nats' | 'redis';

const DEFAULTS: Record<InfraService, { env: string; url: string; port: number }> = {
  nats: { env: 'NATS_URL', url: 'nats://127.0.0.1:4222', port: 4222 },
  redis: { env: 'REDIS_URL', url: 'redis://127.0.0.1:6379', port: 6379 },
};

/** The URL a test uses for the service: its env variable, or the local default. */
export const infraUrl = (service: InfraService): string => {
  const spec = DEFAULTS[service];
  return process.env[spec.env] || spec.url;
};

/** host:port of the service, as shown in a skipped suite's title. */
export const infraAddress = (service: InfraService): string => {
  const { hostname, port } = endpoint(service);
  return `${hostname}:${port}`;
};

/**
 * Whether the service answers a TCP connect. When it does not and REQUIRE_INFRA=1 (CI with the
 * services up), this throws, so a missing service fails the run instead of skipping its suites.
 */
export async function infraAvailable(service: InfraService): Promise<boolean> {
  const { hostname, port } = endpoint(service);
  const reachable = await probe(hostname, port, 1_000);
  if (!reachable && process.env.REQUIRE_INFRA === '1') {
    throw new Error(`${service} at ${hostname}:${port} is unreachable and REQUIRE_INFRA=1`);
  }
  return reachable;
}

/** Title of a suite that runs only when the service is up, saying why when it is skipped. */
export const infraSuiteTitle = (title: string, service: InfraService, available: boolean): string =>
  available ? title : `${title} (${service === 'nats' ? 'NATS' : 'Redis'} at ${infraAddress(service)} unreachable: skipped)`;

const endpoint = (service: InfraService): { hostname: string; port: number } => {
  const spec = DEFAULTS[service];
  // A NATS_URL may list several servers; the first one decides.
  const first = infraUrl(service).split(',')[0]!.trim();
  const url = new URL(first.includes('://') ? first : `${service}://${first}`);
  return { hostname: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(url.port) || spec.port };
};

const probe = (host: string, port: number, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
