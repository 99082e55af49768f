import { randomUUID } from 'node:crypto';
import { infraAvailable, infraUrl } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { filesContaining } from './support/data-dir-grep';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

const natsAndRedis = (await infraAvailable('nats')) && (await infraAvailable('redis'));

/**
 * Export and erasure end to end through the gateway (docs/privacy.md). THE test of erasure: a
 * marker the visitor sent is in DATA_DIR before, and in no file of it after.
 */
const describeErasure = (mode: string, env: () => Record<string, string>) =>
  describe(`visitor export and erasure (${mode})`, () => {
    let e2e: E2eApp;
    let keys: Awaited<ReturnType<E2eApp['admin']['createProject']>>;
    beforeAll(async () => {
      e2e = await startE2eApp(env());
      keys = await e2e.admin.createProject();
    });
    afterAll(() => e2e?.stop());

    /** A visitor who chats with the marker in their messages and page context, and likes the answer. */
    const chatWithMarker = async (marker: string) => {
      const { token, visitor } = await newVisitor(e2e.url, keys.publishableKey);
      const conversation = (
        await http(`${e2e.url}/v2/conversations`, { body: { context: { pageUrl: `https://shop.test/?ref=${marker}` } }, token })
      ).body;
      const sent = await http(`${e2e.url}/v2/conversations/${conversation.id}/messages`, {
        body: { content: `My order number is ${marker}, where is it?`, pageContext: { title: `Order ${marker}`, textSelection: marker } },
        token,
      });
      expect(sent.status).toBe(200);
      const streamed = await fetch(`${e2e.url}/v2/conversations/${conversation.id}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content: `Again: ${marker}`, stream: true }),
      });
      await streamed.text();
      const assistant = (await http(`${e2e.url}/v2/conversations/${conversation.id}/messages?role=assistant`, { token })).body.data;
      expect((await http(`${e2e.url}/v2/messages/${assistant[0].id}/feedback`, { body: { feedback: 'like' }, token })).status).toBe(200);
      return { token, visitorId: visitor.id as string, conversationId: conversation.id as string };
    };

    it('exports everything about the visitor, then erases it: gone from every read, and from every file of DATA_DIR', async () => {
      const marker = `MARKER-${randomUUID()}`;
      const other = await chatWithMarker(`KEPT-${randomUUID()}`);
      const { token, visitorId, conversationId } = await chatWithMarker(marker);
      const p = keys.project.id;

      const exported = await e2e.admin.call('GET', `/projects/${p}/visitors/${visitorId}/export`);
      expect(exported).toMatchObject({ object: 'visitor_export', projectId: p, visitor: { id: visitorId, type: 'anonymous' } });
      expect(exported.conversations).toHaveLength(1);
      expect(exported.conversations[0]).toMatchObject({ id: conversationId, pageUrl: `https://shop.test/?ref=${marker}`, messageCount: 4 });
      const messages = exported.conversations[0].messages;
      expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(messages[0].parts[0].text).toContain(marker);
      expect(messages[1].feedback).toBe('like');
      // The marker is on disk (in the read models) before: the check after can fail.
      expect(await filesContaining(e2e.dataDir, marker)).not.toEqual([]);

      // A disliked answer: its question is unanswered, and insights lists (so groups) it before the erasure.
      expect((await http(`${e2e.url}/v2/messages/${messages[3].id}/feedback`, { body: { feedback: 'dislike' }, token })).status).toBe(200);
      const unanswered = async () => JSON.stringify(await e2e.admin.call('GET', `/projects/${p}/insights/unanswered`));
      await vi.waitFor(async () => expect(await unanswered()).toContain(`Again: ${marker}`), { timeout: 10_000, interval: 100 });

      const erased = await http(`${e2e.url}/admin/v1/projects/${p}/visitors/${visitorId}`, { method: 'DELETE', token: 'test-admin-token' });
      expect(erased.status).toBe(200);
      expect(erased.body).toMatchObject({
        object: 'erasure',
        projectId: p,
        visitorId,
        reason: 'request',
        erasedBy: { kind: 'admin', id: null },
        conversations: 1,
        profileErased: true,
      });
      expect(JSON.stringify(erased.body)).not.toContain(marker);

      // Sessions revoked at once; every read is gone.
      expect((await http(`${e2e.url}/v2/identity/me`, { token })).status).toBe(401);
      expect((await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).status).toBe(401);
      expect((await http(`${e2e.url}/admin/v1/projects/${p}/conversations/${conversationId}`, { token: 'test-admin-token' })).status).toBe(
        404,
      );
      expect((await e2e.admin.call('GET', `/projects/${p}/conversations?visitorId=${visitorId}`)).data).toEqual([]);
      expect((await http(`${e2e.url}/admin/v1/projects/${p}/visitors/${visitorId}/export`, { token: 'test-admin-token' })).status).toBe(
        404,
      );
      const exportAll = await http(`${e2e.url}/admin/v1/projects/${p}/conversations/export`, { token: 'test-admin-token' });
      expect(exportAll.text).not.toContain(marker);
      expect(exportAll.text).toContain(other.conversationId);
      // Erasing again: nothing left to erase.
      expect(
        (await http(`${e2e.url}/admin/v1/projects/${p}/visitors/${visitorId}`, { method: 'DELETE', token: 'test-admin-token' })).status,
      ).toBe(404);

      // The record: who, when, which visitor; no content.
      const records = await e2e.admin.call('GET', `/projects/${p}/erasures`);
      expect(records.data[0]).toMatchObject({ id: erased.body.id, visitorId, erasedAt: expect.any(String) });

      // Analytics keeps its counts, without an id that leads back.
      await vi.waitFor(
        async () => {
          const feed = (await e2e.admin.call('GET', `/projects/${p}/events?limit=100`)).data as any[];
          expect(feed.some((e) => e.conversationId === conversationId || JSON.stringify(e.data).includes(visitorId))).toBe(false);
          expect(feed.filter((e) => e.type === 'message.posted')).toHaveLength(4);
        },
        { timeout: 10_000, interval: 100 },
      );
      // Insights forgets the erased questions; the other visitor's stay.
      await vi.waitFor(
        async () => {
          const listed = await unanswered();
          expect(listed).not.toContain(marker);
          expect(listed).not.toContain(conversationId);
          expect(listed).toContain('KEPT-');
        },
        { timeout: 10_000, interval: 100 },
      );
      const summary = await e2e.admin.call('GET', `/projects/${p}/analytics/feedback`);
      expect(summary.likes).toBe(2);

      // The other visitor is untouched.
      expect((await http(`${e2e.url}/v2/conversations/${other.conversationId}/messages`, { token: other.token })).body.data).toHaveLength(
        4,
      );

      // THE test: no file of DATA_DIR holds the marker any more.
      expect(await filesContaining(e2e.dataDir, marker)).toEqual([]);
    });

    it("surface B's DELETE /api/customers/{appUserId} erases the customer and their chats", async () => {
      const marker = `MARKER-${randomUUID()}`;
      const sk = { 'x-service-key': keys.privateKey };
      const chatId = randomUUID();
      const asked = await http(`${e2e.url}/api/customers/erase-me/chats/${chatId}/chat`, {
        body: { message: { role: 'user', parts: [{ type: 'text', text: `hello ${marker}` }] }, streaming: false },
        headers: sk,
      });
      expect(asked.status).toBe(200);
      await http(`${e2e.url}/api/customers/erase-me`, { body: { name: `Name ${marker}`, email: 'erase-me@example.com' }, headers: sk });
      expect(await filesContaining(e2e.dataDir, marker)).not.toEqual([]);

      const erased = await http(`${e2e.url}/api/customers/erase-me`, { method: 'DELETE', headers: sk });
      expect(erased.status).toBe(200);
      expect(erased.body).toMatchObject({ conversations: 1, profileErased: true, erasedBy: { kind: 'api_key', id: expect.any(String) } });
      expect((await http(`${e2e.url}/api/customers/erase-me/chats`, { headers: sk })).status).toBe(404);
      expect((await http(`${e2e.url}/api/customers/erase-me/chats/${chatId}`, { headers: sk })).status).toBe(404);
      expect((await http(`${e2e.url}/api/customers/erase-me`, { method: 'DELETE', headers: sk })).status).toBe(404);
      expect(await filesContaining(e2e.dataDir, marker)).toEqual([]);
      expect(await filesContaining(e2e.dataDir, 'erase-me@example.com')).toEqual([]);
    });
  });

describeErasure('embedded', () => ({}));

describe.skipIf(!natsAndRedis)(`on NATS + Redis${natsAndRedis ? '' : ' (NATS or Redis unreachable: skipped)'}`, () => {
  describeErasure('NATS + Redis', () => ({ NATS_URL: infraUrl('nats'), REDIS_URL: infraUrl('redis') }));
});
