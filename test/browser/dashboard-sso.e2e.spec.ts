import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable, launchChromium } from '../support/chromium';
import { type E2eApp, http, startE2eApp } from '../support/e2e-app';

const available = chromiumAvailable();
const CLIENT = { id: 'palaver-dashboard', secret: 'a-client-secret-for-the-test-only' };

describe.skipIf(!available)(browserSuiteTitle('single sign-on against a local OpenID Connect provider, in Chromium', available), () => {
  let e2e: E2eApp;
  let browser: Browser;
  let server: Server;

  beforeAll(async () => {
    // The provider's address first: the app is configured with it, the provider with the app's callback.
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    e2e = await startE2eApp({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT.id, OIDC_CLIENT_SECRET: CLIENT.secret });
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          redirect_uris: [`${e2e.url}/auth/v1/sso/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // The dev login form takes any login: the login is the email; "unverified" in it marks the email unverified.
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({ sub, email: sub, email_verified: !sub.includes('unverified'), name: `SSO ${sub.split('@')[0]}` }),
      }),
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['a-cookie-key-for-the-test-only'] },
    });
    server.on('request', provider.callback());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const signInWithSso = async (login: string): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width: 1100, height: 800 } })).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${e2e.url}/dashboard/`);
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    // The provider asks for consent once per client and account.
    await page.locator('button[type="submit"]').click();
    return page;
  };

  it('matches an existing user by verified email, signs them in and lands in the dashboard', async () => {
    const created = await e2e.admin.call('POST', '/users', { email: 'olivia@example.com', name: 'Olivia' });
    const { project } = await e2e.admin.createProject({ name: 'Aurora Shop' });
    await e2e.admin.call('PUT', `/projects/${project.id}/members/${created.id}`, { role: 'owner' });
    const page = await signInWithSso('olivia@example.com');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByText('Olivia', { exact: true }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/auth/v1/me')).json());
    expect(me).toMatchObject({ id: created.id, email: 'olivia@example.com', memberships: [{ projectId: project.id, role: 'owner' }] });
    await page.screenshot({ path: await artifactPath('sso-signed-in.png'), fullPage: true });
    // The invitation is no longer needed: the provider vouched for the email.
    expect((await e2e.admin.call('GET', `/users/${created.id}`)).status).toBe('active');
  });

  it('creates a user for a new verified email, and refuses an unverified one', async () => {
    const page = await signInWithSso('sam@example.com');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const users = (await e2e.admin.call('GET', '/users')).data as Array<{ email: string; name: string }>;
    expect(users.find((u) => u.email === 'sam@example.com')).toMatchObject({ name: 'SSO sam' });

    const refused = await signInWithSso('unverified@example.com');
    await refused.getByText('did not vouch for a verified email').waitFor();
    expect((await http(`${e2e.url}/admin/v1/users`, { token: e2e.app.adminToken })).text).not.toContain('unverified@example.com');
  });
});
