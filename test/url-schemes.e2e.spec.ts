import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

/** URLs a browser would run or render as script if a link or an image pointed there. */
const UNSAFE = [
  'javascript:alert(document.domain)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
];
const SAFE = 'https://shop.example/page';

describe('every URL a client sends is an http(s) URL (422 otherwise, nothing stored)', () => {
  let e2e: E2eApp;
  let keys: Awaited<ReturnType<E2eApp['admin']['createProject']>>;
  let projectId: string;
  let token: string;
  const admin = (method: string, path: string, body?: unknown) =>
    http(`${e2e.url}/admin/v1${path}`, { method, body, token: 'test-admin-token' });

  beforeAll(async () => {
    e2e = await startE2eApp();
    keys = await e2e.admin.createProject();
    projectId = keys.project.id;
    token = (await newVisitor(e2e.url, keys.publishableKey)).token;
  });
  afterAll(() => e2e.stop());

  const refused = (result: { status: number; body: any }, field: string) => {
    expect(result.status, JSON.stringify(result.body)).toBe(422);
    expect(result.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(result.body.error)).toContain(field);
  };

  it('documents: url and imageUrl, on create and on update', async () => {
    const doc = { title: 'Help', content: 'Some help text.' };
    for (const url of UNSAFE) {
      refused(await admin('POST', `/projects/${projectId}/documents`, { ...doc, url }), 'url');
      refused(await admin('POST', `/projects/${projectId}/documents`, { ...doc, url: SAFE, imageUrl: url }), 'imageUrl');
    }
    expect((await admin('GET', `/projects/${projectId}/documents`)).body.total).toBe(0);
    const created = await admin('POST', `/projects/${projectId}/documents`, { ...doc, url: SAFE, imageUrl: 'http://shop.example/a.png' });
    expect(created.status).toBe(201);
    refused(await admin('PATCH', `/projects/${projectId}/documents/${created.body.id}`, { url: UNSAFE[0] }), 'url');
    expect((await admin('GET', `/projects/${projectId}/documents/${created.body.id}`)).body.url).toBe(SAFE);
  });

  it("Q&A: the author's image", async () => {
    for (const image of UNSAFE) {
      refused(
        await admin('POST', `/projects/${projectId}/qnas`, { question: 'Q?', answer: 'A.', createdBy: { name: 'Sam', image } }),
        'image',
      );
    }
    expect((await admin('GET', `/projects/${projectId}/qnas`)).body.total).toBe(0);
    const ok = await admin('POST', `/projects/${projectId}/qnas`, {
      question: 'Q?',
      answer: 'A.',
      createdBy: { name: 'Sam', image: SAFE },
    });
    expect(ok.status).toBe(201);
  });

  it("the widget's avatar and button icon, on create and on update", async () => {
    for (const url of UNSAFE) {
      refused(await admin('POST', '/projects', { name: 'P', chatWidgetConfig: { assistantAvatar: url } }), 'assistantAvatar');
      refused(await admin('PATCH', `/projects/${projectId}`, { chatWidgetConfig: { chatButtonIcon: url } }), 'chatButtonIcon');
    }
    const project = (await admin('GET', `/projects/${projectId}`)).body;
    expect(project.chatWidgetConfig.chatButtonIcon).toBeUndefined();
    expect((await admin('PATCH', `/projects/${projectId}`, { chatWidgetConfig: { assistantAvatar: SAFE } })).status).toBe(200);
  });

  it("an agent's image and the admin handoff's humanAgent image", async () => {
    for (const image of UNSAFE) refused(await admin('POST', `/projects/${projectId}/agents`, { name: 'Ada', image }), 'image');
    expect((await admin('GET', `/projects/${projectId}/agents`)).body.data).toHaveLength(0);
    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
    const handoff = await admin('POST', `/projects/${projectId}/conversations/${conversationId}/handoff`, {
      humanAgent: { name: 'Ada', image: UNSAFE[0] },
    });
    refused(handoff, 'image');
    expect((await admin('GET', `/projects/${projectId}/conversations/${conversationId}`)).body.isHumanHandled).toBe(false);
  });

  it("v2: the conversation's context pageUrl and a message's pageContext url", async () => {
    for (const pageUrl of UNSAFE) {
      refused(await http(`${e2e.url}/v2/conversations`, { body: { context: { pageUrl } }, token }), 'pageUrl');
    }
    expect((await http(`${e2e.url}/v2/conversations`, { token })).body.data).toHaveLength(1);
    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: { context: { pageUrl: SAFE } }, token })).body.id;
    for (const url of UNSAFE) {
      refused(
        await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Hi', pageContext: { url } }, token }),
        'url',
      );
    }
    expect((await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body.data).toHaveLength(0);
  });

  it('surface B: the pageUrl of a message, and no chat is created', async () => {
    const chatId = randomUUID();
    for (const pageUrl of UNSAFE) {
      const sent = await http(`${e2e.url}/api/customers/user-1/chats/${chatId}/chat`, {
        body: { message: { role: 'user', parts: [{ type: 'text', text: 'Hi' }] }, pageUrl },
        headers: { 'x-service-key': keys.privateKey },
      });
      refused(sent, 'pageUrl');
    }
    const chat = await http(`${e2e.url}/api/customers/user-1/chats/${chatId}`, { headers: { 'x-service-key': keys.privateKey } });
    expect(chat.status).toBe(404);
  });
});
