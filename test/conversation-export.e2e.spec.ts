import { AdminConversation } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busConversationSource, exportConversations } from '../services/gateway/src/export/conversation-export';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

/** More than two of the export's pages (100 conversations each). */
const CONVERSATIONS = 230;
const WRITTEN_DURING = 60;
const CREATED_DURING = 5;

describe('conversation export read slowly while conversations are written to', () => {
  let e2e: E2eApp;
  let projectId: string;
  let token: string;
  const created: string[] = [];

  const newConversation = async (): Promise<string> => {
    const response = await http(`${e2e.url}/v2/conversations`, { body: {}, token });
    expect(response.status).toBe(201);
    return response.body.id;
  };

  beforeAll(async () => {
    e2e = await startE2eApp();
    const keys = await e2e.admin.createProject();
    projectId = keys.project.id;
    token = (await newVisitor(e2e.url, keys.publishableKey)).token;
    for (let i = 0; i < CONVERSATIONS; i++) created.push(await newConversation());
  }, 120_000);
  afterAll(() => e2e.stop());

  it('has every conversation exactly once, those created meanwhile at the end, with the messages written meanwhile', async () => {
    // The route's own export (what GET …/conversations/export streams), read one line at a time.
    const lines = exportConversations(busConversationSource(e2e.app.infra.services, projectId), {}, 'ndjson');
    const exported: AdminConversation[] = [];
    const readLines = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const { value, done } = await lines.next();
        if (done) return;
        exported.push(AdminConversation.parse(JSON.parse(value)));
      }
    };
    await readLines(100);

    // While the reader is past its first page: messages in the conversations of the first page
    // and of the last (which an order by latest interaction moves to the front), and new ones.
    const written = [...created.slice(0, WRITTEN_DURING / 2), ...created.slice(-WRITTEN_DURING / 2)];
    for (const conversationId of written) {
      const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Still there?' }, token });
      expect(sent.status).toBe(200);
    }
    const createdDuring: string[] = [];
    for (let i = 0; i < CREATED_DURING; i++) createdDuring.push(await newConversation());

    await readLines(Number.MAX_SAFE_INTEGER);
    const ids = exported.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...created, ...createdDuring].sort());
    expect(ids.slice(-CREATED_DURING).sort()).toEqual([...createdDuring].sort());
    // The last page's conversations were read after their message: it is in the export.
    const late = exported.filter((c) => created.slice(-WRITTEN_DURING / 2).includes(c.id));
    expect(late.every((c) => c.messages?.some((m) => m.role === 'user'))).toBe(true);
  }, 120_000);
});
