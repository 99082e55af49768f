import { ErrorBody } from '@palaver/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, newConversation, useE2eApp, useProject } from './support/e2e-app';
import { GatedChatModel } from './support/gated-chat-model';

const expectError = (result: { status: number; body: unknown }, status: number, code: string) => {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  const body = ErrorBody.parse(result.body);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
};

describe('errors in the spec envelope', () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e);
  let token: string;
  let conversationId: string;
  beforeAll(async () => {
    ({ token, conversationId } = await newConversation(e2e.url, keys.publishableKey));
  });

  it('400 for an unparsable body and for a wrong shape', async () => {
    expectError(
      await http(`${e2e.url}/v2/identity/init`, { rawBody: '{"apiKey": ', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_REQUEST_BODY',
    );
    const missing = expectError(
      await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: keys.publishableKey } }),
      400,
      'INVALID_REQUEST_BODY',
    );
    expect(missing.details).toMatchObject({ field: 'saVid' });
    expectError(
      await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 42 }, token }),
      400,
      'INVALID_REQUEST_BODY',
    );
    expectError(await http(`${e2e.url}/v2/conversations?limit=abc`, { token }), 400, 'INVALID_REQUEST_PARAMETERS');
    expectError(await http(`${e2e.url}/v2/conversations/not-a-uuid`, { token }), 400, 'INVALID_REQUEST_PARAMETERS');
  });

  it('framework-level errors (an over-long path id, a bad percent-escape) in the envelope', async () => {
    const long = expectError(await http(`${e2e.url}/v2/conversations/${'a'.repeat(101)}`, { token }), 400, 'INVALID_REQUEST_PARAMETERS');
    expect(long.message).not.toContain('FST_');
    expectError(await http(`${e2e.url}/v2/conversations/%ZZ`, { token }), 400, 'INVALID_REQUEST_PARAMETERS');
    expectError(
      await http(`${e2e.url}/v2/messages/${'b'.repeat(500)}/feedback`, { body: { feedback: 'like' }, token }),
      400,
      'INVALID_REQUEST_PARAMETERS',
    );
  });

  it('422 for values that break a rule of the Limits table, on both sides of each bound', async () => {
    const post = (content: string) => http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content }, token });
    const tooLong = expectError(await post('x'.repeat(10_001)), 422, 'VALIDATION_ERROR');
    expect(tooLong.details).toMatchObject({ field: 'content' });
    expectError(await post(''), 422, 'VALIDATION_ERROR');

    const init = (saVid: string, key = keys.publishableKey) => http(`${e2e.url}/v2/identity/init`, { body: { apiKey: key, saVid } });
    expectError(await init('v'.repeat(101)), 422, 'VALIDATION_ERROR');
    expect((await init('v'.repeat(100))).status).toBe(201);
    expectError(await init(''), 422, 'VALIDATION_ERROR');
    expect((await init('v')).status).toBe(201);
    expectError(await init('device', ''), 422, 'VALIDATION_ERROR');

    for (const [query, ok] of [
      ['limit=0', false],
      ['limit=1', true],
      ['limit=100', true],
      ['limit=101', false],
      ['offset=-1', false],
      ['offset=0', true],
      ['status=pending', false],
      ['orderBy=name', false],
      ['orderDir=up', false],
    ] as const) {
      const result = await http(`${e2e.url}/v2/conversations?${query}`, { token });
      if (ok) expect(result.status, query).toBe(200);
      else expectError(result, 422, 'VALIDATION_ERROR');
    }
    for (const [query, ok] of [
      ['limit=0', false],
      ['limit=1', true],
      ['limit=1000', true],
      ['limit=1001', false],
      ['role=system', false],
      ['status=done', false],
    ] as const) {
      const result = await http(`${e2e.url}/v2/conversations/${conversationId}/messages?${query}`, { token });
      if (ok) expect(result.status, query).toBe(200);
      else expectError(result, 422, 'VALIDATION_ERROR');
    }
    expectError(
      await http(`${e2e.url}/v2/messages/${conversationId}/feedback`, { body: { feedback: 'love' }, token }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('422 before anything is stored for whitespace-only content and a completion without a user message', async () => {
    const before = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body.data.length;
    const blank = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: ' \n\t ' }, token });
    const error = expectError(blank, 422, 'VALIDATION_ERROR');
    expect(error.details).toMatchObject({ field: 'content' });
    expect(error.details?.reason).toEqual(expect.any(String));
    expect(error.details).not.toHaveProperty('retryAfter');
    expect(blank.headers.get('retry-after')).toBeNull();
    expect((await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body.data.length).toBe(before);

    const systemOnly = await http(`${e2e.url}/v2/chat/completions`, {
      body: { messages: [{ role: 'system', content: 'be brief' }] },
      token: keys.privateKey,
    });
    const completionError = expectError(systemOnly, 422, 'VALIDATION_ERROR');
    expect(completionError.details).toMatchObject({ field: 'messages' });
    expect(completionError.details).not.toHaveProperty('retryAfter');
    expect(systemOnly.headers.get('retry-after')).toBeNull();
    const blankUser = await http(`${e2e.url}/v2/chat/completions`, {
      body: { messages: [{ role: 'user', content: '   ' }] },
      token: keys.privateKey,
    });
    expectError(blankUser, 422, 'VALIDATION_ERROR');
    const blankAgent = await http(`${e2e.url}/admin/v1/projects/${keys.project.id}/conversations/${conversationId}/messages`, {
      body: { content: '  \n ' },
      token: e2e.app.adminToken,
    });
    expect(expectError(blankAgent, 422, 'VALIDATION_ERROR').details).toMatchObject({ field: 'content' });
  });

  it('422 for an over-long page context or handoff agent, and nothing stored', async () => {
    const big = 'x'.repeat(60_000);
    for (const field of ['url', 'title', 'textSelection', 'content']) {
      const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        body: { content: 'with context', pageContext: { [field]: big } },
        token,
      });
      expect(expectError(sent, 422, 'VALIDATION_ERROR').details).toMatchObject({ field: `pageContext.${field}` });
    }
    for (const humanAgent of [
      { name: 'n'.repeat(1_000_000), image: null },
      { name: 'Ada', image: `https://img.example/${'i'.repeat(1_000_000)}` },
    ]) {
      const handoff = await http(`${e2e.url}/admin/v1/projects/${keys.project.id}/conversations/${conversationId}/handoff`, {
        body: { humanAgent },
        token: e2e.app.adminToken,
      });
      expectError(handoff, 422, 'VALIDATION_ERROR');
    }
    expect((await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body.isHumanHandled).toBe(false);
  });

  it('401 for a missing, malformed, unknown or wrong-kind credential', async () => {
    expectError(await http(`${e2e.url}/v2/identity/me`), 401, 'UNAUTHORIZED');
    expectError(await http(`${e2e.url}/v2/identity/me`, { headers: { authorization: token } }), 401, 'UNAUTHORIZED');
    expectError(await http(`${e2e.url}/v2/identity/me`, { headers: { authorization: 'Basic abc' } }), 401, 'UNAUTHORIZED');
    expectError(await http(`${e2e.url}/v2/identity/me`, { token: 'st_not-a-real-token' }), 401, 'UNAUTHORIZED');
    expectError(await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: 'pk_unknown', saVid: 'd' } }), 401, 'UNAUTHORIZED');
    expectError(await http(`${e2e.url}/v2/projects/current?apiKey=pk_unknown`), 401, 'UNAUTHORIZED');
    expectError(await http(`${e2e.url}/admin/v1/projects`), 401, 'UNAUTHORIZED');
    expectError(await http(`${e2e.url}/admin/v1/projects`, { token: 'wrong' }), 401, 'UNAUTHORIZED');
  });

  it('403 for the wrong key type', async () => {
    expectError(await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: keys.privateKey, saVid: 'd' } }), 403, 'FORBIDDEN');
    expectError(
      await http(`${e2e.url}/v2/chat/completions`, { body: { messages: [{ role: 'user', content: 'hi' }] }, token: keys.publishableKey }),
      403,
      'FORBIDDEN',
    );
  });

  it('404 with the resource code and id', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const error = expectError(await http(`${e2e.url}/v2/conversations/${missing}`, { token }), 404, 'CONVERSATION_NOT_FOUND');
    expect(error.details).toEqual({ conversationId: missing });
    expectError(await http(`${e2e.url}/v2/conversations/${missing}/messages`, { token }), 404, 'CONVERSATION_NOT_FOUND');
    expectError(await http(`${e2e.url}/v2/conversations/${missing}/close`, { body: {}, token }), 404, 'CONVERSATION_NOT_FOUND');
    expectError(await http(`${e2e.url}/v2/messages/${missing}/feedback`, { body: { feedback: 'like' }, token }), 404, 'MESSAGE_NOT_FOUND');
    expectError(await http(`${e2e.url}/v2/nothing-here`), 404, 'NOT_FOUND');
  });

  it('413 for an oversized body, 415 for a body that is not JSON', async () => {
    expectError(
      await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        rawBody: JSON.stringify({ content: 'x'.repeat(400_000) }),
        headers: { 'content-type': 'application/json' },
        token,
      }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expectError(
      await http(`${e2e.url}/v2/identity/init`, { rawBody: 'apiKey=x', headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('rejects prototype-pollution payloads with a clean 400 and no side effect', async () => {
    for (const rawBody of [
      `{"apiKey":"${keys.publishableKey}","saVid":"p","__proto__":{"polluted":true}}`,
      `{"apiKey":"${keys.publishableKey}","saVid":"p","constructor":{"prototype":{"polluted":true}}}`,
      // docs/api.md: any `constructor` key is refused, not only one that carries a prototype.
      `{"apiKey":"${keys.publishableKey}","saVid":"p","constructor":"harmless"}`,
      `{"apiKey":"${keys.publishableKey}","saVid":"p","nested":[{"constructor":{}}]}`,
    ]) {
      expectError(
        await http(`${e2e.url}/v2/identity/init`, { rawBody, headers: { 'content-type': 'application/json' } }),
        400,
        'INVALID_REQUEST_BODY',
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Query strings stay flat strings: `status[$ne]` is an unknown parameter, never an operator.
    const all = (await http(`${e2e.url}/v2/conversations`, { token })).body;
    const operator = await http(`${e2e.url}/v2/conversations?status[$ne]=open`, { token });
    expect(operator.status).toBe(200);
    expect(operator.body.total).toBe(all.total);
    expectError(await http(`${e2e.url}/v2/conversations?status=open&status=closed`, { token }), 422, 'VALIDATION_ERROR');
  });

  it('healthz answers 200 when every service is ready', async () => {
    const health = await http(`${e2e.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
  });
});

describe('a message while the previous reply is still streaming', () => {
  const gate = new GatedChatModel();
  const e2e = useE2eApp({}, { chatModel: gate });

  it('answers 409 CONFLICT, and is accepted once the reply completed', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    const first = http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'first' }, token });
    await gate.started();

    const second = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'second' }, token });
    const error = expectError(second, 409, 'CONFLICT');
    expect(error.details).toMatchObject({ resource: 'message', conflictingField: 'status' });

    gate.release('first answer');
    expect((await first).body.steps[0].content[0].text).toBe('first answer');
    const third = http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'third' }, token });
    await gate.started();
    gate.release('third answer');
    expect((await third).status).toBe(200);
  });
});
