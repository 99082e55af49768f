import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, startE2eApp } from '../../../test/support/e2e-app';
import { type StaticSite, startStaticSite } from '../../../test/support/static-site';
import { startWebhookReceiver } from '../../../test/support/webhook-receiver';
import { PalaverApiError } from '../../client/src/errors';
import { PalaverAdmin } from './admin.client';
import { PalaverServer } from './surface-b.client';
import { signUserToken } from './user-token';
import { verifyWebhook } from './webhook';

describe('PalaverAdmin against the running product', () => {
  let e2e: E2eApp;
  let admin: PalaverAdmin;

  let site: StaticSite;

  beforeAll(async () => {
    site = await startStaticSite({
      '/': {
        type: 'text/html',
        body: '<html><head><title>Bikes</title></head><body><main><h1>Bikes</h1><p>We sell refurbished city bikes.</p><a href="/returns">Returns</a></main></body></html>',
      },
      '/returns': {
        type: 'text/html',
        body: '<html><head><title>Returns</title></head><body><main><h1>Returns</h1><p>Unused bikes can be returned within 30 days.</p></main></body></html>',
      },
    });
    // The local site is on loopback: the crawler may reach it only when private networks are allowed.
    e2e = await startE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
    admin = new PalaverAdmin({ baseUrl: `${e2e.url}/`, adminToken: e2e.app.adminToken });
  });
  afterAll(async () => {
    await e2e.stop();
    await site.close();
  });

  it('projects, assistants and keys: create, list, update, revoke', async () => {
    const project = await admin.projects.create({ name: 'SDK shop', limits: { monthlyMessages: 1000 } });
    expect(project).toMatchObject({ name: 'SDK shop', limits: { monthlyMessages: 1000 }, chatWidgetConfig: { position: 'bottom-right' } });
    expect((await admin.projects.list()).map((p) => p.id)).toContain(project.id);
    const renamed = await admin.projects.update(project.id, {
      name: 'SDK shop 2',
      quickPrompts: [{ title: 'Hours', prompt: 'When are you open?' }],
    });
    expect(renamed).toMatchObject({ name: 'SDK shop 2', quickPrompts: [{ title: 'Hours', prompt: 'When are you open?' }] });
    expect((await admin.projects.get(project.id)).name).toBe('SDK shop 2');

    const assistant = await admin.assistants.create(project.id, { name: 'Second', instructions: 'Be brief.' });
    expect((await admin.assistants.list(project.id)).map((a) => a.id)).toEqual(
      expect.arrayContaining([project.defaultAssistantId, assistant.id]),
    );
    expect(await admin.assistants.update(project.id, assistant.id, { model: 'gpt-test' })).toMatchObject({
      id: assistant.id,
      model: 'gpt-test',
    });

    const privateKey = await admin.keys.create(project.id, { type: 'private', name: 'backend' });
    expect(privateKey.key).toMatch(/^sk_/);
    const server = new PalaverServer({ baseUrl: e2e.url, serviceKey: privateKey.key });
    expect((await server.getProject()).id).toBe(project.id);
    expect((await admin.keys.list(project.id)).find((k) => k.id === privateKey.id)).toMatchObject({ type: 'private', revokedAt: null });
    expect((await admin.keys.revoke(project.id, privateKey.id)).revokedAt).not.toBeNull();
    await expect(server.getProject()).rejects.toMatchObject({ name: 'PalaverApiError', status: 401, code: 'UNAUTHORIZED' });
  });

  it('Q&A entries and documents: create, list, update, delete', async () => {
    const project = await admin.projects.create({ name: 'Knowledge shop' });
    const qna = await admin.qnas.create(project.id, { question: 'Do you ship abroad?', answer: 'Yes.' });
    expect((await admin.qnas.update(project.id, qna.id, { answer: 'Yes, to every EU country.' })).answer).toBe('Yes, to every EU country.');
    expect(await admin.qnas.list(project.id, { query: 'ship' })).toMatchObject({ object: 'list', total: 1, data: [{ id: qna.id }] });
    await admin.qnas.delete(project.id, qna.id);
    expect((await admin.qnas.list(project.id)).data).toEqual([]);

    const document = await admin.documents.create(project.id, {
      title: 'Returns',
      url: 'https://shop.example/returns',
      content: 'Returns within 30 days.',
    });
    expect(document).toMatchObject({ title: 'Returns', path: expect.any(String), chunkCount: expect.any(Number) });
    expect((await admin.documents.update(project.id, document.id, { title: 'Returns policy' })).title).toBe('Returns policy');
    expect((await admin.documents.get(project.id, document.id)).title).toBe('Returns policy');
    expect((await admin.documents.list(project.id, { limit: 10 })).data.map((d) => d.id)).toEqual([document.id]);
    await admin.documents.delete(project.id, document.id);
    await expect(admin.documents.get(project.id, document.id)).rejects.toMatchObject({ status: 404 });
  });

  it('webhooks: an endpoint registered, a test event delivered and verified with verifyWebhook, its delivery listed', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const project = await admin.projects.create({ name: 'SDK hooks' });
      const endpoint = await admin.webhooks.create(project.id, { url: receiver.url, events: ['feedback.given'] });
      expect(endpoint.secret).toMatch(/^whsec_/);
      expect((await admin.webhooks.list(project.id)).data.map((w) => w.id)).toEqual([endpoint.id]);
      const delivery = await admin.webhooks.sendTest(project.id, endpoint.id);
      await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 10_000, interval: 50 });
      const payload = verifyWebhook<{ type: string; data: { eventId: string } }>(
        receiver.received[0]!.body,
        receiver.received[0]!.headers,
        endpoint.secret,
      );
      expect(payload).toMatchObject({ type: 'webhook.test', data: { eventId: delivery.eventId } });
      await vi.waitFor(async () => expect((await admin.webhooks.deliveries(project.id, endpoint.id)).data[0]?.status).toBe('succeeded'), {
        timeout: 10_000,
        interval: 50,
      });
      const rotated = await admin.webhooks.rotateSecret(project.id, endpoint.id);
      expect(rotated.secret).not.toBe(endpoint.secret);
      expect((await admin.webhooks.update(project.id, endpoint.id, { enabled: false })).enabled).toBe(false);
      await expect(admin.webhooks.create(project.id, { url: receiver.url, events: ['order.paid'] })).rejects.toMatchObject({ status: 422 });
      await admin.webhooks.delete(project.id, endpoint.id);
      await expect(admin.webhooks.get(project.id, endpoint.id)).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    } finally {
      await receiver.close();
    }
  });

  it('sources: a website crawled to ready, its pages listed, synced and deleted', async () => {
    const project = await admin.projects.create({ name: 'Bike shop' });
    const source = await admin.sources.create(project.id, { type: 'website', url: `${site.origin}/` });
    expect(source).toMatchObject({ type: 'website', status: 'queued' });
    await vi.waitFor(async () => expect((await admin.sources.get(project.id, source.id)).status).toBe('ready'), {
      timeout: 15_000,
      interval: 200,
    });
    const pages = await admin.sources.pages(project.id, source.id, { status: 'indexed' });
    expect(pages.data.map((p) => p.url).sort()).toEqual([`${site.origin}/`, `${site.origin}/returns`]);
    expect((await admin.sources.list(project.id)).data.map((s) => s.id)).toEqual([source.id]);
    expect((await admin.sources.update(project.id, source.id, { maxPages: 10 })).maxPages).toBe(10);
    expect((await admin.sources.sync(project.id, source.id)).id).toBe(source.id);
    await vi.waitFor(async () => expect((await admin.sources.get(project.id, source.id)).pages.unchanged).toBe(2), {
      timeout: 15_000,
      interval: 200,
    });
    await admin.sources.delete(project.id, source.id);
    expect((await admin.documents.list(project.id)).data).toEqual([]);
  });

  it("identity secret: rotated through the SDK, a token it signs opens the customer's session", async () => {
    const project = await admin.projects.create({ name: 'Verified shop' });
    const { key: publishableKey } = await admin.keys.create(project.id, {
      type: 'publishable',
      name: 'site',
      assistantId: project.defaultAssistantId ?? '',
      allowedOrigins: [],
    });
    const { secret, previousSecretValidUntil } = await admin.identitySecret.rotate(project.id);
    expect(previousSecretValidUntil).toBeNull();
    const userToken = await signUserToken(secret, { sub: 'user-9', name: 'Ida' });
    const init = await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'laptop', userToken } });
    expect(init.body.visitor).toMatchObject({ type: 'identified', externalId: 'user-9', name: 'Ida' });
    const forged = await signUserToken('not-the-secret', { sub: 'user-9' });
    expect(
      (await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'laptop', userToken: forged } })).status,
    ).toBe(401);
  });

  it('conversations: a surface B chat is listed and read with its messages', async () => {
    const project = await admin.projects.create({ name: 'Chat shop' });
    const { key } = await admin.keys.create(project.id, { type: 'private', name: 'backend' });
    const server = new PalaverServer({ baseUrl: e2e.url, serviceKey: key });
    const chatId = crypto.randomUUID();
    const reply = await server.chat('user-7', chatId, { message: 'Hello?' });
    expect(reply.type).toBe('reply');
    const { data } = await admin.conversations.list(project.id, { status: 'open' });
    expect(data.map((c) => c.id)).toEqual([chatId]);
    const conversation = await admin.conversations.get(project.id, chatId);
    expect(conversation.messages?.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a wrong token is a PalaverApiError with the envelope code; no server is a PalaverNetworkError', async () => {
    const wrong = new PalaverAdmin({ baseUrl: e2e.url, adminToken: 'not-the-token' });
    const error = await wrong.projects.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PalaverApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const nowhere = new PalaverAdmin({ baseUrl: 'http://127.0.0.1:9', adminToken: 'x' });
    await expect(nowhere.projects.list()).rejects.toMatchObject({ name: 'PalaverNetworkError' });
  });
});
