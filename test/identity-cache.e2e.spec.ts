import { IdentityMessages } from '@palaver/contracts';
import { expect, it, vi } from 'vitest';
import { http, newVisitor } from './support/e2e-app';
import { describeWithTwoGateways } from './support/second-gateway';

/**
 * Two gateway instances in front of the same services, each with its own pub/sub connection: the
 * cached sessions, keys and projects of one follow changes made through the other at once.
 */
describeWithTwoGateways('identity answers cached in the gateway', (start, pubsub) => {
  it('answers repeated requests without asking identity, and a revocation on one instance stops the session on the other at once', async () => {
    const { e2e, other } = await start();
    const { project, publishableKey, publishableKeyId } = await e2e.admin.createProject();
    const { token } = await newVisitor(other, publishableKey);
    const send = vi.spyOn(e2e.app.infra.services, 'send');
    const resolves = () => send.mock.calls.filter(([message]) => message === IdentityMessages.resolveSession).length;

    for (let i = 0; i < 3; i++) expect((await http(`${other}/v2/conversations`, { token })).status).toBe(200);
    expect((await http(`${e2e.url}/v2/conversations`, { token })).status).toBe(200);
    expect(resolves()).toBe(2); // once per gateway instance

    await e2e.admin.call('DELETE', `/projects/${project.id}/keys/${publishableKeyId}`);
    expect((await http(`${other}/v2/conversations`, { token })).status).toBe(401);
    expect((await http(`${e2e.url}/v2/conversations`, { token })).status).toBe(401);
    const init = await http(`${other}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'again' } });
    expect(init.status).toBe(401);
  });

  // Redis only: the in-process pub/sub delivers within the publish, so nothing can lag there.
  if (pubsub.redis) {
    it('a revocation answers only once a gateway whose pub/sub deliveries lag has dropped the session', async () => {
      const { e2e, other, lagOtherDeliveries } = await start();
      const { project, publishableKey, publishableKeyId } = await e2e.admin.createProject();
      const { token } = await newVisitor(other, publishableKey);
      expect((await http(`${other}/v2/conversations`, { token })).status).toBe(200); // cached on the other instance

      lagOtherDeliveries!(300);
      const started = performance.now();
      await e2e.admin.call('DELETE', `/projects/${project.id}/keys/${publishableKeyId}`);
      expect(performance.now() - started).toBeGreaterThanOrEqual(250); // it waited for the lagging instance
      expect((await http(`${other}/v2/conversations`, { token })).status).toBe(401);
    });
  }

  it("a project's changed limits apply on every instance at once", async () => {
    const { e2e, other } = await start();
    const { project, publishableKey } = await e2e.admin.createProject();
    const { token } = await newVisitor(other, publishableKey);
    const conversationId = (await http(`${other}/v2/conversations`, { body: {}, token })).body.id;
    const post = () => http(`${other}/v2/conversations/${conversationId}/messages`, { body: { content: 'Hello?' }, token });
    expect((await post()).status).toBe(200); // the project is now cached on the other instance

    await e2e.admin.call('PATCH', `/projects/${project.id}`, { limits: { monthlyMessages: 1 } });
    expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.body.error.details.limit).toBe('monthlyMessages');
  });
});
