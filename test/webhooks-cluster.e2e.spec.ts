import type { WebhookDelivery, WebhookWithSecret } from '@palaver/contracts';
import { privateServersAvailable } from '@palaver/platform/testing';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { isAlive } from './support/child-app';
import { killHard, useChildCluster } from './support/child-cluster';
import { http, newVisitor } from './support/e2e-app';
import { useFixture } from './support/fixture';
import { startWebhookReceiver } from './support/webhook-receiver';

const available = privateServersAvailable();
/** A delivery attempt whose process died runs again within 1.5 × this (the BullMQ lock). */
const JOB_STALL_TIMEOUT_MS = 4_000;
const MESSAGES = 3;

describe.skipIf(!available)(
  `webhooks in the cluster (NATS + BullMQ), on a NATS and a Redis of the test's own${available ? '' : ' (nats-server or redis-server not installed: skipped)'}`,
  () => {
    const receiver = useFixture(startWebhookReceiver, (started) => started.close());
    const cluster = useChildCluster(() => ({
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '1000,1000,1000,1000',
      JOB_STALL_TIMEOUT_MS: String(JOB_STALL_TIMEOUT_MS),
    }));

    it('kill -9 of the analytics process in the middle of a retry loses no delivery: another process delivers every event', async () => {
      const { project, publishableKey } = await cluster.admin.createProject();
      const endpoint: WebhookWithSecret = await cluster.admin.call('POST', `/projects/${project.id}/webhooks`, {
        url: receiver.url,
        events: ['message.posted'],
      });
      // Every event's first attempt fails; the first second attempt is held open while its process is killed.
      let held: string | null = null;
      receiver.answer = (hook, hit) => {
        if (hit === 1) return 500;
        if (hit === 2 && held === null) {
          held = String(hook.headers['webhook-id']);
          return 'hang';
        }
        return 200;
      };

      const { token } = await newVisitor(cluster.urls[0]!, publishableKey);
      const conversationId = (await http(`${cluster.urls[0]}/v2/conversations`, { body: {}, token })).body.id;
      for (let i = 0; i < MESSAGES; i++) {
        await http(`${cluster.urls[0]}/v2/conversations/${conversationId}/messages`, { body: { content: `question ${i}` }, token });
      }

      await expect.poll(() => held, { timeout: 60_000, interval: 50 }).not.toBeNull();
      const pid = cluster.pid('analytics');
      await killHard(pid);
      expect(isAlive(pid)).toBe(false);
      await cluster.restarted('analytics', pid);

      const deliveries = async (): Promise<WebhookDelivery[]> =>
        (
          await cluster.admin
            .call('GET', `/projects/${project.id}/webhooks/${endpoint.id}/deliveries?limit=100`)
            .catch(() => ({ data: [] }))
        ).data;
      await expect
        .poll(async () => (await deliveries()).map((d) => d.status), { timeout: 90_000, interval: 250 })
        .toEqual(Array.from({ length: MESSAGES }, () => 'succeeded'));

      const done = await deliveries();
      const ids = done.map((d) => d.eventId).sort();
      expect(new Set(receiver.received.map((h) => String(h.headers['webhook-id']))).size).toBe(MESSAGES);
      for (const id of ids) {
        const hits = receiver.hitsOf(id);
        expect(hits.at(-1)!.status).toBe(200);
        expect(hits[0]!.status).toBe(500);
        for (const hit of hits) {
          const payload = new Webhook(endpoint.secret).verify(hit.body, {
            'webhook-id': id,
            'webhook-timestamp': String(hit.headers['webhook-timestamp']),
            'webhook-signature': String(hit.headers['webhook-signature']),
          }) as { type: string; data: { eventId: string } };
          expect(payload).toMatchObject({ type: 'message.posted', data: { eventId: id } });
        }
      }
      // The attempt that was cut off ran again, in the new process: same webhook-id, answered this time.
      expect(receiver.hitsOf(held!).map((h) => h.status)).toEqual([500, null, 200]);
      expect(done.find((d) => d.eventId === held)).toMatchObject({ attempts: 2, lastResponseStatus: 200 });
    }, 180_000);
  },
);
