import { AdminConversation, pagedList } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

/** The admin calls the dashboard added: assistant edits, conversation browsing and export, disliked answers. */
describe('admin API for the dashboard', () => {
  let e2e: E2eApp;
  let projectId: string;
  let publishableKey: string;
  let visitor: { token: string; visitor: { id: string } };
  let conversationIds: string[];

  const say = async (conversationId: string, content: string) => {
    const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content }, token: visitor.token });
    expect(sent.status).toBe(200);
  };

  beforeAll(async () => {
    e2e = await startE2eApp();
    ({
      project: { id: projectId },
      publishableKey,
    } = await e2e.admin.createProject());
    visitor = await newVisitor(e2e.url, publishableKey);
    conversationIds = [];
    for (const question of ['Do you ship abroad?', 'What, "exactly", is the warranty?']) {
      const id = (await http(`${e2e.url}/v2/conversations`, { body: {}, token: visitor.token })).body.id;
      await say(id, question);
      conversationIds.push(id);
    }
    await http(`${e2e.url}/v2/conversations/${conversationIds[0]}/close`, { body: { closeReason: 'done' }, token: visitor.token });
  });
  afterAll(() => e2e.stop());

  it('edits an assistant’s instructions and model, and resets the model with null', async () => {
    const assistant = await e2e.admin.call('POST', `/projects/${projectId}/assistants`, { name: 'Sales' });
    const edited = await e2e.admin.call('PATCH', `/projects/${projectId}/assistants/${assistant.id}`, {
      instructions: 'Be brief.',
      model: 'gpt-4o-mini',
    });
    expect(edited).toMatchObject({ id: assistant.id, name: 'Sales', instructions: 'Be brief.', model: 'gpt-4o-mini' });
    const reset = await e2e.admin.call('PATCH', `/projects/${projectId}/assistants/${assistant.id}`, { model: null });
    expect(reset.model).toBeNull();
    const listed = await e2e.admin.call('GET', `/projects/${projectId}/assistants`);
    expect(listed.data.find((a: { id: string }) => a.id === assistant.id)).toMatchObject({ instructions: 'Be brief.', model: null });

    const missing = await http(`${e2e.url}/admin/v1/projects/${projectId}/assistants/${crypto.randomUUID()}`, {
      method: 'PATCH',
      body: { name: 'x' },
      token: 'test-admin-token',
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ASSISTANT_NOT_FOUND');
  });

  it('sets the optional widget fields and clears one with null, leaving the others', async () => {
    const set = await e2e.admin.call('PATCH', `/projects/${projectId}`, {
      chatWidgetConfig: { chatButtonColor: '#e11d48', assistantAvatar: 'https://shop.example/avatar.png' },
    });
    expect(set.chatWidgetConfig).toMatchObject({ chatButtonColor: '#e11d48', assistantAvatar: 'https://shop.example/avatar.png' });
    const cleared = await e2e.admin.call('PATCH', `/projects/${projectId}`, { chatWidgetConfig: { chatButtonColor: null } });
    expect(cleared.chatWidgetConfig).not.toHaveProperty('chatButtonColor');
    expect(cleared.chatWidgetConfig.assistantAvatar).toBe('https://shop.example/avatar.png');
    // What the widget reads.
    const current = await http(`${e2e.url}/v2/projects/current?apiKey=${publishableKey}`);
    expect(current.status).toBe(200);
    expect(current.body.chatWidgetConfig).not.toHaveProperty('chatButtonColor');
    expect(current.body.chatWidgetConfig.assistantAvatar).toBe('https://shop.example/avatar.png');
    // A required field cannot be cleared.
    const refused = await http(`${e2e.url}/admin/v1/projects/${projectId}`, {
      method: 'PATCH',
      body: { chatWidgetConfig: { brandColor: null } },
      token: 'test-admin-token',
    });
    expect(refused.status).toBe(400);
  });

  it('lists every conversation of the project with its visitor, and filters by status', async () => {
    const all = pagedList(AdminConversation).parse(await e2e.admin.call('GET', `/projects/${projectId}/conversations`));
    expect(all.total).toBe(2);
    expect(all.data.map((c) => c.id).sort()).toEqual([...conversationIds].sort());
    expect(all.data.every((c) => c.visitorId === visitor.visitor.id && c.messageCount === 2)).toBe(true);
    const closed = await e2e.admin.call('GET', `/projects/${projectId}/conversations?status=closed`);
    expect(closed.data.map((c: { id: string }) => c.id)).toEqual([conversationIds[0]]);
    const handled = await e2e.admin.call('GET', `/projects/${projectId}/conversations?humanHandled=true`);
    expect(handled.total).toBe(0);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await e2e.admin.call('GET', `/projects/${projectId}/conversations?from=${future}`)).total).toBe(0);
    expect((await e2e.admin.call('GET', `/projects/${projectId}/conversations?to=${future}`)).total).toBe(2);
    const bad = await http(`${e2e.url}/admin/v1/projects/${projectId}/conversations?limit=0`, { token: 'test-admin-token' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'limit' } });
  });

  it('reads one conversation with its messages, and 404s another project’s', async () => {
    const one = AdminConversation.parse(await e2e.admin.call('GET', `/projects/${projectId}/conversations/${conversationIds[1]}`));
    expect(one.messages?.map((m) => m.role)).toEqual(['user', 'assistant']);
    const other = await e2e.admin.createProject({ name: 'Other' });
    const foreign = await http(`${e2e.url}/admin/v1/projects/${other.project.id}/conversations/${conversationIds[1]}`, {
      token: 'test-admin-token',
    });
    expect(foreign.status).toBe(404);
  });

  it('exports the filtered conversations as NDJSON and as CSV', async () => {
    const ndjson = await http(`${e2e.url}/admin/v1/projects/${projectId}/conversations/export?format=ndjson`, {
      token: 'test-admin-token',
    });
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('content-type')).toContain('application/x-ndjson');
    expect(ndjson.headers.get('content-disposition')).toContain('attachment');
    const lines = ndjson.text
      .trim()
      .split('\n')
      .map((line) => AdminConversation.parse(JSON.parse(line)));
    expect(lines.map((c) => c.id).sort()).toEqual([...conversationIds].sort());
    expect(lines.every((c) => c.messages?.length === 2)).toBe(true);

    const csv = await http(`${e2e.url}/admin/v1/projects/${projectId}/conversations/export?format=csv&status=open`, {
      token: 'test-admin-token',
    });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe(
      'conversationId,conversationStatus,visitorId,conversationCreatedAt,messageId,messageCreatedAt,role,text,feedback,humanAgent',
    );
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain(`${conversationIds[1]},open,`);
    expect(rows[1]).toContain('"What, ""exactly"", is the warranty?"');
  });

  it('ranks disliked answers with the question they replied to', async () => {
    const conversation = await e2e.admin.call('GET', `/projects/${projectId}/conversations/${conversationIds[1]}`);
    const answer = conversation.messages.find((m: { role: string }) => m.role === 'assistant');
    const disliked = await http(`${e2e.url}/v2/messages/${answer.id}/feedback`, { body: { feedback: 'dislike' }, token: visitor.token });
    expect(disliked.status).toBe(200);
    const ranked = await e2e.admin.call('GET', `/projects/${projectId}/analytics/disliked-answers`);
    expect(ranked.data).toEqual([
      expect.objectContaining({
        question: 'What, "exactly", is the warranty?',
        answer: answer.parts[0].text,
        dislikes: 1,
        messageId: answer.id,
        conversationId: conversationIds[1],
      }),
    ]);
  });

  it('serves the dashboard: index.html never cached, hashed assets cached for good, client routes fall back', async () => {
    const redirect = await fetch(`${e2e.url}/dashboard`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    const index = await http(`${e2e.url}/dashboard/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const asset = /\/dashboard\/assets\/[^"]+\.js/.exec(index.text)?.[0];
    expect(asset).toMatch(/^\/dashboard\/assets\/.+\.js$/);
    const script = await http(`${e2e.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const deep = await http(`${e2e.url}/dashboard/projects/${projectId}/keys`);
    expect(deep.status).toBe(200);
    expect(deep.text).toBe(index.text);
    const missingAsset = await http(`${e2e.url}/dashboard/assets/nope.js`);
    expect(missingAsset.status).toBe(404);
  });
});
