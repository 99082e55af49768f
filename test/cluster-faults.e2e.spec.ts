import { FakeOpenAiServer, privateServersAvailable } from '@palaver/platform';
import type { UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from './support/child-app';
import { type ChildCluster, killHard, startChildCluster } from './support/child-cluster';
import { http, newVisitor } from './support/e2e-app';
import { uiChunks } from './support/ui-stream';

const available = privateServersAvailable();

/** A job whose worker died runs again within 1.5 × this: the bound the kill test asserts. */
const JOB_STALL_TIMEOUT_MS = 3_000;
const REPLY_TIMEOUT_MS = 10_000;

describe.skipIf(!available)(
  `faults in the cluster, on a NATS and a Redis of the test's own${available ? '' : ' (nats-server or redis-server not installed: skipped)'}`,
  () => {
    let cluster: ChildCluster;
    let upstream: FakeOpenAiServer;
    let token: string;
    const base = () => cluster.urls[0]!;

    beforeAll(async () => {
      upstream = await FakeOpenAiServer.start();
      cluster = await startChildCluster({
        WORKERS: '2',
        LOG_LEVEL: 'info',
        OPENAI_BASE_URL: upstream.baseURL,
        JOB_STALL_TIMEOUT_MS: String(JOB_STALL_TIMEOUT_MS),
        REPLY_TIMEOUT_MS: String(REPLY_TIMEOUT_MS),
      });
      token = (await newVisitor(base(), cluster.publishableKey)).token;
    }, 200_000);
    afterAll(async () => {
      await cluster?.stop();
      await upstream?.close();
    }, 60_000);

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
    const workerOf = async (messageId: string): Promise<string> => {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const line = cluster.output.join('').split('\n').find((l) => l.includes('generating reply') && l.includes(messageId));
        if (line) return /^\[(inference-\d+)\]/.exec(line)![1]!;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no worker logged reply ${messageId}`);
    };

    it(`kill -9 of the inference worker mid-stream: no text twice, the reply ends as an error within ${1.5 * JOB_STALL_TIMEOUT_MS} ms (+ margin), stored so`, async () => {
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
        if (chunk.type === 'text-start') messageId = (chunk.providerMetadata?.palaver as { messageId: string }).messageId;
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

      // The worker gets its (slow) answer 2 s after the visitor was told, and tries to record it.
      await new Promise((r) => setTimeout(r, 4_000));
      const [reply] = await assistantMessages(conversationId);
      expect(reply.status).toBe('error');
      expect(reply.parts.map((p: any) => p.text ?? '').join('')).not.toContain('late but complete');
    }, 60_000);
  },
);
