import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { filesContaining } from './support/data-dir-grep';
import { http, newVisitor, useE2eApp } from './support/e2e-app';
import { epochSeconds, signUserToken } from './support/user-token';

describe('the inbox’s visitor panel (GET /agent/v1/conversations/{id}/visitor)', () => {
  const e2e = useE2eApp();

  const setup = async () => {
    const keys = await e2e.admin.createProject();
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, { handoff: { enabled: true } });
    const ada = await e2e.admin.call('POST', `/projects/${keys.project.id}/agents`, { name: 'Ada' });
    return { ...keys, ada };
  };
  const visitorOf = (token: string, conversationId: string) =>
    http(`${e2e.url}/agent/v1/conversations/${conversationId}/visitor`, { token });
  const start = (token: string, userAgent: string, pageUrl?: string) =>
    http(`${e2e.url}/v2/conversations`, { body: pageUrl ? { context: { pageUrl } } : {}, token, headers: { 'user-agent': userAgent } });

  it('shows an identified visitor: identity, last page, browser, contact and their other conversations newest first', async () => {
    const { project, publishableKey, ada } = await setup();
    const secret = (await http(`${e2e.url}/admin/v1/projects/${project.id}/identity-secret`, { method: 'POST', token: 'test-admin-token' }))
      .body.secret as string;
    const userToken = signUserToken(
      { sub: 'user-42', name: 'Bea Smith', email: 'bea@example.com', iat: epochSeconds(), exp: epochSeconds(3600) },
      secret,
    );
    const init = await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'laptop', userToken } });
    const token = init.body.sessionToken as string;
    const older = (await start(token, 'OldBrowser/1.0')).body;
    const middle = (await start(token, 'OldBrowser/2.0')).body;
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0';
    const current = (await start(token, `${browser} ${'x'.repeat(600)}`, 'https://shop.test/start')).body;
    await http(`${e2e.url}/v2/conversations/${current.id}/messages`, {
      body: { content: 'Where is my order?', pageContext: { url: 'https://shop.test/orders/7', title: 'Order 7' } },
      token,
    });
    await http(`${e2e.url}/v2/conversations/${current.id}/messages`, { body: { content: 'Hello?' }, token });
    await http(`${e2e.url}/v2/conversations/${current.id}/contact`, { body: { email: 'bea.home@example.com', name: 'Bea' }, token });

    const panel = await visitorOf(ada.token, current.id);
    expect(panel.status).toBe(200);
    expect(panel.body).toEqual({
      visitorId: init.body.visitor.id,
      identity: { verified: true, userId: 'user-42', email: 'bea@example.com', name: 'Bea Smith' },
      contact: { email: 'bea.home@example.com', name: 'Bea', capturedAt: expect.any(String) },
      page: { url: 'https://shop.test/orders/7', title: 'Order 7' },
      userAgent: `${browser} ${'x'.repeat(500 - browser.length - 1)}`,
      // Newest first, the id breaking a tie of creation times.
      previousConversations: [middle, older]
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
        .map((c) => ({
          id: c.id,
          title: c.title,
          status: 'open',
          createdAt: c.createdAt,
          lastInteractionAt: c.lastInteractionAt,
        })),
    });
    expect(panel.body.userAgent).toHaveLength(500);
  });

  it('shows an anonymous visitor: unverified, the page the conversation started on, at most 10 others', async () => {
    const { publishableKey, ada } = await setup();
    const { token, visitor } = await newVisitor(e2e.url, publishableKey);
    for (let i = 0; i < 11; i++) await start(token, `Agent/${i}`);
    const current = (await start(token, 'Safari/17', 'https://shop.test/pricing')).body;
    const panel = (await visitorOf(ada.token, current.id)).body;
    expect(panel).toMatchObject({
      visitorId: visitor.id,
      identity: { verified: false, userId: null, email: null, name: null },
      contact: null,
      page: { url: 'https://shop.test/pricing', title: null },
      userAgent: 'Safari/17',
    });
    expect(panel.previousConversations).toHaveLength(10);
    expect(panel.previousConversations.map((c: { id: string }) => c.id)).not.toContain(current.id);
  });

  it('is 404 for another project’s or an unknown conversation and 401 without a token', async () => {
    const { publishableKey } = await setup();
    const other = await setup();
    const { token } = await newVisitor(e2e.url, publishableKey);
    const conversation = (await start(token, 'Chrome/131')).body;
    const foreign = await visitorOf(other.ada.token, conversation.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    expect((await visitorOf(other.ada.token, randomUUID())).status).toBe(404);
    expect((await http(`${e2e.url}/agent/v1/conversations/${conversation.id}/visitor`)).status).toBe(401);
  });

  it('keeps the User-Agent sealed, and erases it with the visitor', async () => {
    const { project, publishableKey, ada } = await setup();
    const marker = `Browser-${randomUUID()}`;
    const { token, visitor } = await newVisitor(e2e.url, publishableKey);
    const conversation = (await start(token, marker)).body;
    expect((await visitorOf(ada.token, conversation.id)).body.userAgent).toBe(marker);
    expect(await filesContaining(e2e.dataDir, marker)).toEqual([]);
    const erased = await http(`${e2e.url}/admin/v1/projects/${project.id}/visitors/${visitor.id}`, {
      method: 'DELETE',
      token: 'test-admin-token',
    });
    expect(erased.status).toBe(200);
    expect((await visitorOf(ada.token, conversation.id)).status).toBe(404);
  });
});
