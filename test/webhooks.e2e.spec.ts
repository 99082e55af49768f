import type { WebhookDelivery, Webhook as WebhookView, WebhookWithSecret } from '@palaver/contracts';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { type E2eApp, http, newConversation, startE2eApp, useE2eApp, useProject } from './support/e2e-app';
import { useFixture } from './support/fixture';
import { type ReceivedHook, startWebhookReceiver } from './support/webhook-receiver';

const RETRY_DELAYS_MS = [300, 600, 300];
const POLL = { timeout: 15_000, interval: 50 } as const;

const verified = (hook: ReceivedHook, secret: string): any =>
  new Webhook(secret).verify(hook.body, {
    'webhook-id': String(hook.headers['webhook-id']),
    'webhook-timestamp': String(hook.headers['webhook-timestamp']),
    'webhook-signature': String(hook.headers['webhook-signature']),
  });

describe('signed webhooks (embedded)', () => {
  const e2e = useE2eApp({
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: RETRY_DELAYS_MS.join(','),
    WEBHOOK_DISABLE_AFTER_MS: '3000',
    WEBHOOK_RECOVERY_INTERVAL_MS: '500',
  });
  const receiver = useFixture(startWebhookReceiver, (started) => started.close());
  const keys = useProject(e2e);
  afterEach(() => {
    receiver.answer = () => 200;
  });

  const hooks = () => `/projects/${keys.project.id}/webhooks`;
  const register = (body: object): Promise<WebhookWithSecret> => e2e.admin.call('POST', hooks(), body);
  const deliveries = async (webhookId: string): Promise<WebhookDelivery[]> =>
    (await e2e.admin.call('GET', `${hooks()}/${webhookId}/deliveries?limit=100`)).data;
  const adminHttp = (method: string, path: string, body?: unknown) =>
    http(`${e2e.url}/admin/v1${path}`, { method, body, token: e2e.app.adminToken });

  it('registers, lists without secrets, changes, rotates and removes an endpoint; refuses unknown types and forbidden URLs with 422', async () => {
    const created = await register({ url: receiver.url, events: ['feedback.given', 'feedback.removed'], description: 'CRM' });
    expect(created).toMatchObject({ object: 'webhook', url: receiver.url, enabled: true, disabledReason: null, description: 'CRM' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);

    const listed = (await e2e.admin.call('GET', hooks())).data as WebhookView[];
    expect(listed.map((w) => w.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(JSON.stringify(await e2e.admin.call('GET', `${hooks()}/${created.id}`))).not.toContain('whsec_');

    const patched = await e2e.admin.call('PATCH', `${hooks()}/${created.id}`, { events: ['*'], enabled: false });
    expect(patched).toMatchObject({ events: ['*'], enabled: false });
    const rotated = await e2e.admin.call('POST', `${hooks()}/${created.id}/rotate-secret`);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);

    const unknown = await adminHttp('POST', hooks(), { url: receiver.url, events: ['feedback.given', 'order.paid'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'events', unknown: ['order.paid'] } });
    expect(unknown.body.error.details.allowed).toEqual(expect.arrayContaining(['*', 'feedback.given', 'conversation.started']));

    const metadata = await adminHttp('POST', hooks(), { url: 'http://169.254.169.254/latest/meta-data', events: ['*'] });
    expect(metadata.status).toBe(422);
    expect(metadata.body.error.message).toMatch(/link-local|metadata/);
    const notHttp = await adminHttp('POST', hooks(), { url: 'ftp://example.com/hook', events: ['*'] });
    expect(notHttp.status).toBe(422);

    expect((await adminHttp('DELETE', `${hooks()}/${created.id}`)).status).toBe(204);
    const gone = await adminHttp('GET', `${hooks()}/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('WEBHOOK_NOT_FOUND');
  });

  it('delivers the subscribed feed events, signed as Standard Webhooks define (verified with standardwebhooks), never the message text', async () => {
    const endpoint = await register({ url: receiver.url, events: ['conversation.started', 'message.posted'] });
    const { token, conversationId } = await newConversation(e2e.url, keys.publishableKey);
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'secret words of a visitor' }, token });

    await expect.poll(() => receiver.received.filter((h) => h.body.includes(conversationId)).length, POLL).toBe(2);
    const mine = receiver.received.filter((h) => h.body.includes(conversationId));
    const payloads = mine.map((hook) => verified(hook, endpoint.secret));
    expect(payloads.map((p) => p.type).sort()).toEqual(['conversation.started', 'message.posted']);
    for (const [i, payload] of payloads.entries()) {
      expect(payload).toMatchObject({
        timestamp: payload.data.occurredAt,
        data: { projectId: keys.project.id, conversationId, type: payload.type },
      });
      expect(mine[i]!.headers['webhook-id']).toBe(payload.data.eventId);
      expect(mine[i]!.headers['content-type']).toBe('application/json');
    }
    expect(mine.map((h) => h.body).join('')).not.toContain('secret words');
    // The same body under another secret does not verify.
    expect(() => verified(mine[0]!, `whsec_${Buffer.alloc(24, 7).toString('base64')}`)).toThrow();

    await expect.poll(async () => (await deliveries(endpoint.id)).map((d) => d.status), POLL).toEqual(['succeeded', 'succeeded']);
    await e2e.admin.call('DELETE', `${hooks()}/${endpoint.id}`);
  });

  it('retries a receiver that fails twice on the schedule, with the same webhook-id, until it succeeds', async () => {
    const endpoint = await register({ url: receiver.url, events: ['*'] });
    receiver.answer = (hook, hit) => (hook.body.includes('webhook.test') && hit <= 2 ? 500 : 200);
    const test = await e2e.admin.call('POST', `${hooks()}/${endpoint.id}/test`);
    expect(test).toMatchObject({ object: 'webhook_delivery', type: 'webhook.test', status: 'pending', attempts: 0 });

    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, POLL).toBe('succeeded');
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ id: test.id, attempts: 3, lastResponseStatus: 200, lastError: null, nextAttemptAt: null });
    const hits = receiver.hitsOf(test.eventId);
    expect(hits.map((h) => h.status)).toEqual([500, 500, 200]);
    for (const hit of hits) expect(verified(hit, endpoint.secret)).toMatchObject({ type: 'webhook.test', data: { eventId: test.eventId } });
    // Each attempt is signed anew: its own timestamp header, at least the schedule's wait after the one before.
    const times = hits.map((h) => Number(h.headers['webhook-timestamp']));
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(Math.floor((RETRY_DELAYS_MS[0]! + RETRY_DELAYS_MS[1]!) / 1000));
    const webhook = await e2e.admin.call('GET', `${hooks()}/${endpoint.id}`);
    expect(webhook).toMatchObject({ enabled: true, failingSince: null });
    const metrics = (await http(`${e2e.url}/metrics`, { token: e2e.app.adminToken })).text;
    expect(metrics).toMatch(/palaver_webhook_deliveries_total\{outcome="failed"\} [2-9]/);
    expect(metrics).toMatch(/palaver_webhook_deliveries_total\{outcome="succeeded"\} [1-9]/);

    // A resend on demand: one more attempt, same id.
    const resent = await e2e.admin.call('POST', `${hooks()}/${endpoint.id}/deliveries/${test.id}/retry`);
    expect(resent.status).toBe('pending');
    await expect.poll(() => receiver.hitsOf(test.eventId).length, POLL).toBe(4);
    await expect.poll(async () => (await deliveries(endpoint.id))[0], POLL).toMatchObject({ status: 'succeeded', attempts: 4 });
    await e2e.admin.call('DELETE', `${hooks()}/${endpoint.id}`);
  });

  it('fails a delivery once the schedule is spent, and disables an endpoint that keeps failing, with the reason', async () => {
    const endpoint = await register({ url: receiver.url, events: ['*'] });
    receiver.answer = () => 503;
    const first = await e2e.admin.call('POST', `${hooks()}/${endpoint.id}/test`);
    await expect
      .poll(async () => (await deliveries(endpoint.id)).find((d) => d.id === first.id), POLL)
      .toMatchObject({ status: 'failed', attempts: RETRY_DELAYS_MS.length + 1, lastResponseStatus: 503, nextAttemptAt: null });
    expect(receiver.hitsOf(first.eventId)).toHaveLength(RETRY_DELAYS_MS.length + 1);
    const failing = await e2e.admin.call('GET', `${hooks()}/${endpoint.id}`);
    expect(failing.failingSince).not.toBeNull();

    // Still failing past WEBHOOK_DISABLE_AFTER_MS: the next failed attempt disables it.
    await expect
      .poll(
        async () => {
          const now = await e2e.admin.call('GET', `${hooks()}/${endpoint.id}`);
          if (now.enabled) await e2e.admin.call('POST', `${hooks()}/${endpoint.id}/test`);
          return now.enabled;
        },
        { timeout: 20_000, interval: 700 },
      )
      .toBe(false);
    const disabled = await e2e.admin.call('GET', `${hooks()}/${endpoint.id}`);
    expect(disabled.disabledReason).toMatch(/every delivery attempt has failed since .* \(last: the endpoint answered 503\)/);
    const refused = await adminHttp('POST', `${hooks()}/${endpoint.id}/deliveries/${first.id}/retry`);
    expect(refused.status).toBe(409);
    await expect.poll(async () => (await deliveries(endpoint.id)).filter((d) => d.status === 'pending'), POLL).toEqual([]);

    // Enabled again by an admin: the reason goes, and a resend gets through.
    receiver.answer = () => 204;
    const enabled = await e2e.admin.call('PATCH', `${hooks()}/${endpoint.id}`, { enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await e2e.admin.call('POST', `${hooks()}/${endpoint.id}/deliveries/${first.id}/retry`);
    await expect
      .poll(async () => (await deliveries(endpoint.id)).find((d) => d.id === first.id), POLL)
      .toMatchObject({ status: 'succeeded', lastResponseStatus: 204 });
    expect(
      (await e2e.admin.call('GET', `${hooks()}/${endpoint.id}/deliveries?status=succeeded`)).data.map((d: WebhookDelivery) => d.id),
    ).toEqual([first.id]);
    await e2e.admin.call('DELETE', `${hooks()}/${endpoint.id}`);
  });
});

describe('the outbound guard on webhooks', () => {
  it('refuses a loopback URL at registration, and at delivery once private networks are no longer allowed (after a restart)', async () => {
    const receiver = await startWebhookReceiver();
    const strict = await startE2eApp({ WEBHOOK_RECOVERY_INTERVAL_MS: '500' });
    let open: E2eApp | null = null;
    let reopened: E2eApp | null = null;
    try {
      const { project } = await strict.admin.createProject();
      const refused = await http(`${strict.url}/admin/v1/projects/${project.id}/webhooks`, {
        body: { url: receiver.url, events: ['*'] },
        token: strict.app.adminToken,
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url' } });
      expect(refused.body.error.message).toMatch(/127\.0\.0\.1 is a loopback or private network address/);
      const dataDir = strict.dataDir;
      await strict.stop({ keepData: true });

      // Registered where private networks were allowed…
      open = await startE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' }, { dataDir });
      const endpoint = await open.admin.call('POST', `/projects/${project.id}/webhooks`, { url: receiver.url, events: ['*'] });
      await open.stop({ keepData: true });
      open = null;

      // …then delivered by a process where they are not: the address is checked at each delivery.
      reopened = await startE2eApp({ WEBHOOK_RETRY_DELAYS_MS: '100', WEBHOOK_RECOVERY_INTERVAL_MS: '500' }, { dataDir });
      const test = await reopened.admin.call('POST', `/projects/${project.id}/webhooks/${endpoint.id}/test`);
      await expect
        .poll(async () => (await reopened!.admin.call('GET', `/projects/${project.id}/webhooks/${endpoint.id}/deliveries`)).data[0], POLL)
        .toMatchObject({ id: test.id, status: 'failed', attempts: 2, lastResponseStatus: null });
      const [delivery] = (await reopened.admin.call('GET', `/projects/${project.id}/webhooks/${endpoint.id}/deliveries`)).data;
      expect(delivery.lastError).toMatch(/refused: 127\.0\.0\.1 is a loopback or private network address/);
      expect(receiver.received).toEqual([]);
    } finally {
      await open?.stop();
      await reopened?.stop();
      await receiver.close();
    }
  }, 60_000);
});

describe('webhooks across a restart (embedded: the job queue lives in the process)', () => {
  it('a retry waiting when the process stops is queued again by the next one and delivered', async () => {
    const receiver = await startWebhookReceiver((_hook, hit) => (hit === 1 ? 500 : 200));
    const settings = { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS_MS: '1000', WEBHOOK_TIMEOUT_MS: '1000' } as const;
    const first = await startE2eApp({ ...settings, WEBHOOK_RECOVERY_INTERVAL_MS: '60000' });
    let second: E2eApp | null = null;
    try {
      const { project } = await first.admin.createProject();
      const path = `/projects/${project.id}/webhooks`;
      const endpoint = await first.admin.call('POST', path, { url: receiver.url, events: ['*'] });
      const test = await first.admin.call('POST', `${path}/${endpoint.id}/test`);
      await expect
        .poll(async () => (await first.admin.call('GET', `${path}/${endpoint.id}/deliveries`)).data[0], POLL)
        .toMatchObject({ status: 'pending', attempts: 1, lastResponseStatus: 500 });
      await first.stop({ keepData: true });

      second = await startE2eApp({ ...settings, WEBHOOK_RECOVERY_INTERVAL_MS: '300' }, { dataDir: first.dataDir });
      await expect
        .poll(async () => (await second!.admin.call('GET', `${path}/${endpoint.id}/deliveries`)).data[0], POLL)
        .toMatchObject({ id: test.id, status: 'succeeded', attempts: 2, lastResponseStatus: 200 });
      expect(receiver.hitsOf(test.eventId).map((h) => h.status)).toEqual([500, 200]);
    } finally {
      await second?.stop();
      await receiver.close();
    }
  }, 60_000);
});
