import { ErrorBody } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_AUTH_THROTTLE } from '../services/gateway/src/auth/admin-token';
import { type E2eApp, http, startE2eApp } from './support/e2e-app';

/** The gateway believes X-Forwarded-For from this machine (a local proxy), so each test can be its own client address. */
const from = (address: string, token?: string): { headers: Record<string, string>; token?: string } =>
  token ? { headers: { 'x-forwarded-for': address }, token } : { headers: { 'x-forwarded-for': address } };

const codeOf = (body: unknown) => ErrorBody.parse(body).error.code;

describe('admin API authentication', () => {
  let e2e: E2eApp;
  let adminToken: string;
  beforeAll(async () => {
    e2e = await startE2eApp();
    adminToken = e2e.app.adminToken;
  });
  afterAll(() => e2e.stop());

  it('answers an unknown admin path 401 without credentials, and 404 only to the admin', async () => {
    for (const path of ['/admin/v1/nope', '/admin/v1/projects/x/y/z', '/admin/nope', '/metrics/nope']) {
      const anonymous = await http(`${e2e.url}${path}`, from('198.51.100.1'));
      expect(anonymous.status, path).toBe(401);
      expect(codeOf(anonymous.body)).toBe('UNAUTHORIZED');
      const admin = await http(`${e2e.url}${path}`, from('198.51.100.1', adminToken));
      expect(admin.status, path).toBe(404);
      expect(codeOf(admin.body)).toBe('NOT_FOUND');
    }
    // Any other unknown path is still a plain 404.
    expect((await http(`${e2e.url}/v2/nope`)).status).toBe(404);
  });

  it(`throttles an address after ${ADMIN_AUTH_THROTTLE.failures} wrong tokens (429, Retry-After), whatever it sends next, and no other address`, async () => {
    const attacker = '203.0.113.7';
    for (let i = 0; i < ADMIN_AUTH_THROTTLE.failures; i++) {
      const refused = await http(`${e2e.url}/admin/v1/projects`, from(attacker, `adm_guess_${i}`));
      expect(refused.status, `attempt ${i + 1}`).toBe(401);
    }
    const throttled = await http(`${e2e.url}/admin/v1/projects`, from(attacker, 'adm_guess_next'));
    expect(throttled.status).toBe(429);
    expect(codeOf(throttled.body)).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(ADMIN_AUTH_THROTTLE.windowSeconds);

    // The throttled address learns nothing, not even from the right token; an unknown path counts as a known one.
    expect((await http(`${e2e.url}/admin/v1/projects`, from(attacker, adminToken))).status).toBe(429);
    expect((await http(`${e2e.url}/admin/v1/nope`, from(attacker, 'adm_guess_again'))).status).toBe(429);

    // The admin elsewhere is not locked out.
    const admin = await http(`${e2e.url}/admin/v1/projects`, from('192.0.2.10', adminToken));
    expect(admin.status).toBe(200);
  });

  it('never counts the right token, nor a missing one', async () => {
    const address = '192.0.2.20';
    for (let i = 0; i < ADMIN_AUTH_THROTTLE.failures * 2; i++) {
      expect((await http(`${e2e.url}/admin/v1/projects`, from(address, adminToken))).status).toBe(200);
      expect((await http(`${e2e.url}/admin/v1/projects`, from(address))).status).toBe(401);
    }
    // One wrong token is still only a 401: nothing above was counted.
    expect((await http(`${e2e.url}/admin/v1/projects`, from(address, 'adm_wrong'))).status).toBe(401);
  });
});
