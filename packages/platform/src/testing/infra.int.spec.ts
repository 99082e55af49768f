import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { infraAvailable, infraSuiteTitle } from './infra';

const saved = { REDIS_URL: process.env.REDIS_URL, NATS_URL: process.env.NATS_URL, REQUIRE_INFRA: process.env.REQUIRE_INFRA };
const restore = () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
};

const listen = (): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer((socket) => socket.end());
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

/** A port nothing listens on: taken, then released. */
const freePort = async (): Promise<number> => {
  const server = await listen();
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

describe('infraAvailable', () => {
  afterEach(restore);

  it('answers true when the service accepts a connection at its URL', async () => {
    const server = await listen();
    try {
      process.env.REDIS_URL = `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
      process.env.NATS_URL = `nats://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await infraAvailable('redis')).toBe(true);
      expect(await infraAvailable('nats')).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers false when nothing listens, and says so in the suite title', async () => {
    const port = await freePort();
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
    delete process.env.REQUIRE_INFRA;
    const available = await infraAvailable('redis');
    expect(available).toBe(false);
    expect(infraSuiteTitle('RedisPubSub', 'redis', available)).toBe(`RedisPubSub (Redis at 127.0.0.1:${port} unreachable: skipped)`);
    expect(infraSuiteTitle('RedisPubSub', 'redis', true)).toBe('RedisPubSub');
  });

  it('throws, naming the service, when it is unreachable and REQUIRE_INFRA=1', async () => {
    const port = await freePort();
    process.env.NATS_URL = `nats://127.0.0.1:${port},nats://127.0.0.1:1`;
    process.env.REQUIRE_INFRA = '1';
    await expect(infraAvailable('nats')).rejects.toThrow(`nats at 127.0.0.1:${port} is unreachable`);
  });
});
