import { ChatCompletionResult, Conversation, InitIdentityResponse, Message, pagedList, plainList, Visitor } from '@palaver/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, newVisitor, useE2eApp, useProject } from './support/e2e-app';
import { parseUiMessageStream } from './support/ui-stream';

describe('the visitor journey of the spec, through HTTP', () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e);
  let token: string;
  let conversationId: string;
  beforeAll(async () => {
    await e2e.admin.call('POST', `/projects/${keys.project.id}/qnas`, {
      question: 'What are your opening hours?',
      answer: 'We are open Monday to Friday from 9:00 to 17:00.',
    });
  });

  it('init creates the visitor (201), then finds it again for the same device (200) with a new token', async () => {
    const first = await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: keys.publishableKey, saVid: 'device-journey' } });
    expect(first.status).toBe(201);
    expect(Object.keys(InitIdentityResponse.strict().parse(first.body)).sort()).toEqual(['sessionToken', 'visitor']);
    expect(Visitor.parse(first.body.visitor)).toMatchObject({ object: 'visitor', type: 'anonymous', externalId: null });
    const again = await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: keys.publishableKey, saVid: 'device-journey' } });
    expect(again.status).toBe(200);
    expect(again.body.visitor.id).toBe(first.body.visitor.id);
    expect(again.body.sessionToken).not.toBe(first.body.sessionToken);
    token = again.body.sessionToken;
  });

  it('me answers the visitor of the token', async () => {
    const me = await http(`${e2e.url}/v2/identity/me`, { token });
    expect(me.status).toBe(200);
    expect(Visitor.parse(me.body).type).toBe('anonymous');
  });

  it('creates an open conversation with empty messages', async () => {
    const created = await http(`${e2e.url}/v2/conversations`, {
      body: { context: { pageUrl: 'https://shop.example/help' } },
      token,
    });
    expect(created.status).toBe(201);
    const conversation = Conversation.parse(created.body);
    expect(conversation).toMatchObject({ object: 'conversation', status: 'open', closedAt: null, closeReason: null, messages: [] });
    conversationId = conversation.id;
  });

  it('answers a non-streamed message with the Chat completion result grounded in the Q&A', async () => {
    const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'What are your opening hours?', pageContext: { url: 'https://shop.example/help', title: 'Help' } },
      token,
    });
    expect(sent.status).toBe(200);
    const result = ChatCompletionResult.parse(sent.body);
    const step = result.steps[0]!;
    expect(step.content[0]!.text).toContain('Monday to Friday from 9:00 to 17:00');
    expect(step.finishReason).toBe('stop');
    // The Q&A entry's own question: answered with the entry verbatim (the Q&A override), no model called, no tokens.
    expect(step.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('streams a reply as the UI message stream in the spec order, and stores the same text', async () => {
    const response = await fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ content: 'When are you open?', stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const parsed = await parseUiMessageStream(await response.text());

    const types = parsed.chunks.map((c) => c.type);
    const deltas = types.filter((t) => t === 'text-delta').length;
    expect(deltas).toBeGreaterThan(1);
    expect(types).toEqual(['start', 'start-step', 'text-start', ...Array(deltas).fill('text-delta'), 'text-end', 'finish-step', 'finish']);
    expect(parsed.rawLines.at(-1)).toBe('data: [DONE]');

    const messages = plainList(Message).parse(
      (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body,
    );
    const stored = messages.data.at(-1)!;
    expect(stored.status).toBe('complete');
    expect(stored.parts[0]!.text).toBe(parsed.text);
    expect(parsed.text.length).toBeGreaterThan(0);
  });

  it('lists messages oldest first, with role, status, limit and offset filters and page metadata', async () => {
    const all = plainList(Message).parse((await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body);
    expect(all.data.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const times = all.data.map((m) => m.createdAt);
    expect([...times].sort()).toEqual(times);
    const first = all.data[0]!;
    expect(first.metadata).toMatchObject({ pageUrl: 'https://shop.example/help', pageTitle: 'Help', textSelection: null });

    const users = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=user`, { token })).body;
    expect(users.data).toHaveLength(2);
    expect(users.data.every((m: { role: string }) => m.role === 'user')).toBe(true);
    const page = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?limit=1&offset=1`, { token })).body;
    expect(page.data.map((m: { id: string }) => m.id)).toEqual([all.data[1]!.id]);
    const complete = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?status=complete`, { token })).body;
    expect(complete.data).toHaveLength(4);
    const streaming = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?status=streaming`, { token })).body;
    expect(streaming.data).toHaveLength(0);
  });

  it('gets the conversation with its messages and title, and lists it with its last message', async () => {
    const got = Conversation.parse((await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body);
    expect(got.messages).toHaveLength(4);
    expect(got.title).toBe('What are your opening hours?');
    const list = pagedList(Conversation).parse((await http(`${e2e.url}/v2/conversations`, { token })).body);
    expect(list).toMatchObject({ object: 'list', total: 1, limit: 10, offset: 0 });
    expect(list.data[0]!.id).toBe(conversationId);
    expect(list.data[0]!.lastMessage?.role).toBe('assistant');
    expect(list.data[0]!.messages).toBeUndefined();
  });

  it('records like, dislike and removal of feedback on an assistant message', async () => {
    const messages = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body;
    const messageId = messages.data[0].id;
    const feedback = (value: string | null) => http(`${e2e.url}/v2/messages/${messageId}/feedback`, { body: { feedback: value }, token });

    expect((await feedback('like')).body).toEqual({ feedback: 'like' });
    expect((await feedback('dislike')).body).toEqual({ feedback: 'dislike' });
    const afterDislike = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body;
    expect(afterDislike.data[0]).toMatchObject({ feedback: 'dislike' });
    expect(afterDislike.data[0].feedbackAt).not.toBeNull();
    const removed = await feedback(null);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ feedback: null });
    const afterRemoval = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body;
    expect(afterRemoval.data[0].feedback).toBeNull();
  });

  it('closes the conversation, and closing again still succeeds', async () => {
    const closed = await http(`${e2e.url}/v2/conversations/${conversationId}/close`, { body: { closeReason: 'resolved' }, token });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ success: true });
    expect(typeof closed.body.message).toBe('string');
    const again = await http(`${e2e.url}/v2/conversations/${conversationId}/close`, { body: {}, token });
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(true);
    const got = (await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body;
    expect(got).toMatchObject({ status: 'closed', closeReason: 'resolved' });
    expect(got.closedAt).not.toBeNull();
  });

  it('refuses a message to a closed conversation with 409 CONFLICT', async () => {
    const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'hello?' }, token });
    expect(sent.status).toBe(409);
    expect(sent.body.error.code).toBe('CONFLICT');
  });

  it('filters and sorts the conversation list', async () => {
    const second = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body;
    const open = (await http(`${e2e.url}/v2/conversations?status=open`, { token })).body;
    expect(open.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
    const closed = (await http(`${e2e.url}/v2/conversations?status=closed`, { token })).body;
    expect(closed.data.map((c: { id: string }) => c.id)).toEqual([conversationId]);
    const byCreated = (await http(`${e2e.url}/v2/conversations?orderBy=createdAt&orderDir=asc`, { token })).body;
    expect(byCreated.data.map((c: { id: string }) => c.id)).toEqual([conversationId, second.id]);
    for (const orderBy of ['id', 'createdAt', 'updatedAt', 'lastInteractionAt', 'status', 'closedAt', 'isHumanHandled', 'title']) {
      for (const orderDir of ['asc', 'desc']) {
        const listed = await http(`${e2e.url}/v2/conversations?orderBy=${orderBy}&orderDir=${orderDir}`, { token });
        expect(listed.status, `${orderBy} ${orderDir}`).toBe(200);
        expect(listed.body.total).toBe(2);
      }
    }
    const paged = (await http(`${e2e.url}/v2/conversations?limit=1&offset=1&orderBy=createdAt&orderDir=asc`, { token })).body;
    expect(paged).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
  });
});

describe('a fresh visitor', () => {
  const e2e = useE2eApp();

  it('has no conversations', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const { token } = await newVisitor(e2e.url, publishableKey);
    const list = await http(`${e2e.url}/v2/conversations`, { token });
    expect(list.body).toEqual({ object: 'list', total: 0, limit: 10, offset: 0, data: [] });
  });
});
