import { INFERENCE_QUEUE } from '@palaver/contracts';
import { FakeOpenAiServer, type PrivateServer, privateServersAvailable } from '@palaver/platform/testing';
import type { UIMessageChunk } from 'ai';
import { beforeAll, describe, expect, it, vi } from 'vitest';
// Not exported by the platform's index, which loads BullMQ only when Redis is configured.
import { BullMqJobQueue } from '../packages/platform/src/job-queue/bullmq.job-queue';
import { isAlive } from './support/child-app';
import { killHard, useChildCluster } from './support/child-cluster';
import { http, newVisitor } from './support/e2e-app';
import { useFixture } from './support/fixture';
import { uiChunks } from './support/ui-stream';

const available = privateServersAvailable();

/** A job whose worker died runs again within 1.5 × this: the bound the kill test asserts. */
const JOB_STALL_TIMEOUT_MS = 4_000;
const REPLY_TIMEOUT_MS = 10_000;
const PROCESSES = ['identity', 'conversation', 'search', 'analytics', 'inference-1', 'inference-2', 'gateway-1'];

describe.skipIf(!available)(
  `faults in the cluster, on a NATS and a Redis of the test's own${available ? '' : ' (nats-server or redis-server not installed: skipped)'}`,
  () => {
    const upstream = useFixture(
      () => FakeOpenAiServer.start(),
      (server) => server.close(),
    );
    const cluster = useChildCluster(() => ({
      WORKERS: '2',
      LOG_LEVEL: 'info',
      OPENAI_BASE_URL: upstream.baseURL,
      JOB_STALL_TIMEOUT_MS: String(JOB_STALL_TIMEOUT_MS),
      REPLY_TIMEOUT_MS: String(REPLY_TIMEOUT_MS),
    }));
    const base = () => cluster.urls[0]!;
    let token: string;
    beforeAll(async () => {
      token = (await newVisitor(base(), cluster.publishableKey)).token;
    });

    const newConversation = async (): Promise<string> => (await http(`${base()}/v2/conversations`, { body: {}, token })).body.id;
    const streamMessage = async (conversationId: string, content: string) => {
      const response = await fetch(`${base()}/v2/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content, stream: true }),
      });
      expect(response.status).toBe(200);
      return uiChunks(response.body!);
    };
    const assistantMessages = async (conversationId: string) =>
      (await http(`${base()}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data as any[];
    /** The inference process that logged it started the reply. */
    const workerOf = (messageId: string): Promise<string> =>
      vi.waitFor(
        () => {
          const line = cluster.output
            .join('')
            .split('\n')
            .find((l) => l.includes('generating reply') && l.includes(messageId));
          expect(line, `a worker logged reply ${messageId}`).toBeDefined();
          return /^\[(inference-\d+)\]/.exec(line!)![1]!;
        },
        { timeout: 10_000, interval: 50 },
      );

    it(`kill -9 of the inference worker mid-stream: no text twice, the reply ends as an error within ${1.5 * JOB_STALL_TIMEOUT_MS} ms (+ margin), stored so with the text streamed`, async () => {
      upstream.scriptChat({ kind: 'hang', afterChunks: 3, text: 'alpha beta gamma delta epsilon zeta' });
      const conversationId = await newConversation();
      const chunks = await streamMessage(conversationId, 'Tell me a story');
      const seen: UIMessageChunk[] = [];
      let messageId = '';
      // Read by hand: leaving a for-await loop would close the stream.
      while (seen.filter((c) => c.type === 'text-delta').length < 3) {
        const { value: chunk, done } = await chunks.next();
        if (done) throw new Error(`the stream ended early: ${JSON.stringify(seen)}`);
        seen.push(chunk);
        if (chunk.type === 'text-start') messageId = (chunk.providerMetadata!.palaver as { messageId: string }).messageId;
      }
      const worker = await workerOf(messageId);
      const pid = cluster.pid(worker);
      await killHard(pid);
      expect(isAlive(pid)).toBe(false);
      const killedAt = Date.now();

      for await (const chunk of chunks) seen.push(chunk);
      const endedAfter = Date.now() - killedAt;
      const deltas = seen.filter((c) => c.type === 'text-delta').map((c) => (c as { delta: string }).delta);
      expect(deltas.join('')).toBe('alpha beta gamma ');
      expect(seen.filter((c) => c.type === 'error')).toHaveLength(1);
      expect(seen.at(-1)?.type).toBe('finish');
      expect(endedAfter).toBeLessThan(1.5 * JOB_STALL_TIMEOUT_MS + 5_000);

      const [reply] = await assistantMessages(conversationId);
      expect(reply.id).toBe(messageId);
      expect(reply.status).toBe('error');
      // Stored with the text the visitor saw, which died with the worker: the gateway relayed it.
      expect(reply.parts.map((p: { text: string }) => p.text).join('')).toBe(deltas.join(''));
      expect(reply.error).toBe('the reply was interrupted: its worker stopped');
      // The supervisor (the launcher) starts the worker again.
      await cluster.restarted(worker, pid);
    }, 60_000);

    it('a reply the visitor was told timed out stays failed when its worker finishes late', async () => {
      upstream.scriptChat({ kind: 'reply', text: 'late but complete', delayMs: REPLY_TIMEOUT_MS + 2_000 });
      const conversationId = await newConversation();
      const seen: UIMessageChunk[] = [];
      for await (const chunk of await streamMessage(conversationId, 'Are you there?')) seen.push(chunk);
      expect(seen.find((c) => c.type === 'error')).toMatchObject({ errorText: expect.stringContaining('timed out') });
      expect((await assistantMessages(conversationId))[0].status).toBe('error');

      // The worker gets its (slow) answer 2 s after the visitor was told and tries to record it; its
      // job (id: the reply's) ends only after that try.
      const replyId = (await assistantMessages(conversationId))[0].id;
      const jobs = new BullMqJobQueue(cluster.redis.url);
      try {
        expect(await jobs.exists(INFERENCE_QUEUE, replyId)).toBe(true); // still waiting for its answer
        await vi.waitFor(async () => expect(await jobs.exists(INFERENCE_QUEUE, replyId), `the reply job ${replyId} ended`).toBe(false), {
          timeout: 15_000,
          interval: 100,
        });
      } finally {
        await jobs.close();
      }
      const [reply] = await assistantMessages(conversationId);
      expect(reply.status).toBe('error');
      expect(reply.parts.map((p: any) => p.text ?? '').join('')).not.toContain('late but complete');
    }, 60_000);

    it('kill -9 of analytics mid-burst: it is restarted and catches up within seconds, nothing lost or counted twice', async () => {
      const { project, publishableKey } = await cluster.admin.createProject({ limits: { messagesPerMinute: 100 } });
      const visitor = await newVisitor(base(), publishableKey);
      const conversationId = (await http(`${base()}/v2/conversations`, { body: {}, token: visitor.token })).body.id;
      const replies: string[] = [];
      for (let i = 0; i < 5; i++) {
        const sent = await http(`${base()}/v2/conversations/${conversationId}/messages`, {
          body: { content: `question ${i}` },
          token: visitor.token,
        });
        expect(sent.status).toBe(200);
      }
      for (const m of (await http(`${base()}/v2/conversations/${conversationId}/messages?role=assistant`, { token: visitor.token })).body
        .data)
        replies.push(m.id);
      expect(replies).toHaveLength(5);

      const pid = cluster.pid('analytics');
      const likes = replies.map(async (id, i) => {
        if (i === 2) {
          await killHard(pid);
          expect(isAlive(pid)).toBe(false);
        }
        const given = await http(`${base()}/v2/messages/${id}/feedback`, { body: { feedback: 'like' }, token: visitor.token });
        expect(given.status).toBe(200);
      });
      await Promise.all(likes);
      const killedAt = Date.now();
      await cluster.restarted('analytics', pid);

      // conversation.started + 5 × (message.posted, reply.completed, feedback.given)
      const expected = 1 + 5 * 3;
      const feed: any[] = await vi.waitFor(
        async () => {
          const events = (await cluster.admin.call('GET', `/projects/${project.id}/events?limit=500`)).data;
          expect(events.length).toBeGreaterThanOrEqual(expected);
          return events;
        },
        { timeout: 30_000, interval: 250 },
      );
      const caughtUpAfter = Date.now() - killedAt;
      expect(feed).toHaveLength(expected);
      expect(new Set(feed.map((e) => e.eventId)).size).toBe(expected);
      expect(feed.filter((e) => e.type === 'feedback.given')).toHaveLength(5);
      expect(caughtUpAfter).toBeLessThan(30_000);
      const summary = await cluster.admin.call('GET', `/projects/${project.id}/analytics/feedback`);
      expect(summary).toMatchObject({ likes: 5, dislikes: 0, removals: 0 });
    }, 90_000);

    it('NATS down 60 s, then Redis down 30 s, under light traffic: every process recovers by itself, not ready meanwhile, no acknowledged message lost', async () => {
      const before = Object.fromEntries(PROCESSES.map((name) => [name, cluster.pid(name)]));
      const conversationId = await newConversation();
      const acknowledged: string[] = [];
      let running = true;
      const traffic = (async () => {
        for (let i = 0; running; i++) {
          const content = `light traffic ${i}`;
          const sent = await http(`${base()}/v2/conversations/${conversationId}/messages`, { body: { content }, token }).catch(() => null);
          if (sent?.status === 200) acknowledged.push(content);
          // Light traffic: a message a second.
          await new Promise((r) => setTimeout(r, 1_000));
        }
      })();
      const health = async () => (await http(`${base()}/healthz`).catch(() => ({ status: 0 }))).status;
      const waitForHealth = (status: number, withinMs: number) =>
        vi.waitFor(async () => expect(await health(), `healthz within ${withinMs} ms`).toBe(status), { timeout: withinMs, interval: 250 });
      /** Traffic goes through again: a message sent after the outage is acknowledged. */
      const acknowledgedMore = (count: number, withinMs: number) =>
        vi.waitFor(() => expect(acknowledged.length, `messages acknowledged within ${withinMs} ms`).toBeGreaterThanOrEqual(count), {
          timeout: withinMs,
          interval: 100,
        });
      /** `server` down for `ms` (an outage of that length is what is tested), not ready meanwhile; then traffic goes through again. */
      const outage = async (server: PrivateServer, ms: number) => {
        await server.stop();
        const downAt = Date.now();
        await waitForHealth(503, 10_000);
        await new Promise((r) => setTimeout(r, ms - (Date.now() - downAt)));
        await server.start();
        await waitForHealth(200, 30_000);
        await acknowledgedMore(acknowledged.length + 1, 45_000);
      };
      await waitForHealth(200, 10_000);
      await acknowledgedMore(2, 10_000);

      await outage(cluster.nats, 60_000);
      await outage(cluster.redis, 30_000);
      running = false;
      await traffic;

      // Recovered by reconnecting, not by being restarted.
      expect(Object.fromEntries(PROCESSES.map((name) => [name, cluster.pid(name)]))).toEqual(before);
      const stored = (await http(`${base()}/v2/conversations/${conversationId}/messages?role=user`, { token })).body.data.map(
        (m: any) => m.parts[0].text,
      );
      for (const content of acknowledged) expect(stored).toContain(content);
    }, 200_000);

    it('sessions survive a Redis restart when Redis persists (append-only file)', async () => {
      const visitor = await newVisitor(base(), cluster.publishableKey);
      await cluster.redis.stop();
      await cluster.redis.start();
      // Answered again once the gateway has reconnected: 200 if the session survived, 401 if it was lost.
      const status = await vi.waitFor(
        async () => {
          const answered = (await http(`${base()}/v2/identity/me`, { token: visitor.token })).status;
          expect([200, 401]).toContain(answered);
          return answered;
        },
        { timeout: 20_000, interval: 250 },
      );
      expect(status).toBe(200);
    }, 60_000);
  },
);
