import { randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cookieOf, PASSWORD } from './support/accounts';
import { http } from './support/e2e-app';
import { natsAndRedisAvailable, natsAndRedisTitle } from './support/nats-and-redis';
import { useTwoGatewaysOnNatsAndRedis } from './support/second-gateway';

/** Redis is shared between runs: every address and email of this suite is new. */
const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const someEmail = () => `u-${randomUUID()}@example.com`;

describe.skipIf(!natsAndRedisAvailable)(natsAndRedisTitle('accounts on NATS and Redis, across two gateways'), () => {
  const { e2e, second } = useTwoGatewaysOnNatsAndRedis();

  const login = (base: string, email: string, password: string, address = someAddress()) =>
    http(`${base}/auth/v1/login`, { body: { email, password }, headers: { 'x-forwarded-for': address } });

  it('a session made on one gateway works on the other, and a sign-out on either ends it', async () => {
    const email = someEmail();
    const user = await http(`${e2e.url}/admin/v1/users`, { token: e2e.app.adminToken, body: { email, name: 'Ada', password: PASSWORD } });
    expect(user.status).toBe(201);
    const signedIn = await login(e2e.url, email, PASSWORD);
    expect(signedIn.status).toBe(200);
    const cookie = cookieOf(signedIn);
    const me = await http(`${second.url}/auth/v1/me`, { headers: { cookie } });
    expect([me.status, me.body.email]).toEqual([200, email]);
    expect((await http(`${second.url}/auth/v1/logout`, { method: 'POST', headers: { cookie } })).status).toBe(204);
    expect((await http(`${e2e.url}/auth/v1/me`, { headers: { cookie } })).status).toBe(401);
  });

  it('counts failed sign-ins of an account across gateways', async () => {
    const email = someEmail();
    await http(`${e2e.url}/admin/v1/users`, { token: e2e.app.adminToken, body: { email, name: 'Bo', password: PASSWORD } });
    for (const base of [e2e.url, second.url, e2e.url, second.url, e2e.url]) {
      expect((await login(base, email, 'wrong-password-1')).status).toBe(401);
    }
    const refused = await login(second.url, email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
