import { ErrorBody, MAX_OFFSET } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

const expectError = (result: { status: number; body: unknown }, status: number, code: string, field: string) => {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  const { error } = ErrorBody.parse(result.body);
  expect(error.code).toBe(code);
  expect(error.details).toMatchObject({ field });
};

describe('paging and identifier bounds', () => {
  let e2e: E2eApp;
  let keys: Awaited<ReturnType<E2eApp['admin']['createProject']>>;
  let token: string;
  let conversationId: string;
  beforeAll(async () => {
    e2e = await startE2eApp();
    keys = await e2e.admin.createProject();
    token = (await newVisitor(e2e.url, keys.publishableKey)).token;
    conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
  });
  afterAll(() => e2e.stop());

  const adminGet = (path: string) => http(`${e2e.url}/admin/v1/projects/${keys.project.id}${path}`, { token: e2e.app.adminToken });
  const surfaceB = (path: string) => http(`${e2e.url}/api${path}`, { headers: { 'x-service-key': keys.privateKey } });

  it('answers 422 to an offset or page past its bound, or written other than in decimal digits', async () => {
    const messages = `${e2e.url}/v2/conversations/${conversationId}/messages`;
    for (const offset of ['1e12', String(MAX_OFFSET + 1), '1000000000000', '0x10', '1.0']) {
      expectError(await http(`${messages}?offset=${offset}`, { token }), 422, 'VALIDATION_ERROR', 'offset');
      expectError(await adminGet(`/documents?offset=${offset}`), 422, 'VALIDATION_ERROR', 'offset');
      expectError(await adminGet(`/conversations?offset=${offset}`), 422, 'VALIDATION_ERROR', 'offset');
    }
    for (const page of ['1e3', '10001', '1000000']) {
      expectError(await surfaceB(`/qnas?page=${page}`), 422, 'VALIDATION_ERROR', 'page');
      expectError(await surfaceB(`/customers/user-1/chats?page=${page}`), 422, 'VALIDATION_ERROR', 'page');
    }
    expectError(await http(`${messages}?limit=1e1`, { token }), 422, 'VALIDATION_ERROR', 'limit');
    // A non-number is still the wrong shape (400); the bounds themselves still answer.
    expectError(await http(`${messages}?offset=abc`, { token }), 400, 'INVALID_REQUEST_PARAMETERS', 'offset');
    expect((await http(`${messages}?offset=${MAX_OFFSET}&limit=10`, { token })).status).toBe(200);
    expect((await surfaceB('/qnas?page=10000&pageSize=100')).status).toBe(200);
  });

  it('answers 422 to an assistant model that is not a one-line identifier, and keeps nothing of it', async () => {
    const assistants = `${e2e.url}/admin/v1/projects/${keys.project.id}/assistants`;
    const assistantId = keys.project.defaultAssistantId as string;
    for (const model of ['gpt-4o\r\nX-Injected: yes', 'gpt-4o\n', 'gpt 4o', '\tgpt', 'gpt\u0000']) {
      const created = await http(assistants, { body: { name: 'Bad model', model }, token: e2e.app.adminToken });
      expectError(created, 422, 'VALIDATION_ERROR', 'model');
      const patched = await http(`${assistants}/${assistantId}`, { method: 'PATCH', body: { model }, token: e2e.app.adminToken });
      expectError(patched, 422, 'VALIDATION_ERROR', 'model');
    }
    const listed = await http(assistants, { token: e2e.app.adminToken });
    expect(listed.body.data.map((a: { name: string }) => a.name)).not.toContain('Bad model');
    const good = await http(assistants, {
      body: { name: 'Good model', model: 'meta-llama/Llama-3.1-8B-Instruct:q4@v1' },
      token: e2e.app.adminToken,
    });
    expect(good.status).toBe(201);
    expect(good.body.model).toBe('meta-llama/Llama-3.1-8B-Instruct:q4@v1');
  });
});
