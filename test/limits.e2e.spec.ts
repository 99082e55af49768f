import { describe, expect, it } from 'vitest';
import { http, newConversation, newVisitor, useE2eApp } from './support/e2e-app';

describe('per-project message limits', () => {
  const e2e = useE2eApp();

  const conversationOf = async (apiKey: string) => {
    const { token, conversationId } = await newConversation(e2e.url, apiKey);
    return (content: string) => http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content }, token });
  };

  it('messagesPerMinute answers 429 with details.retryAfter and a Retry-After header', async () => {
    const { publishableKey } = await e2e.admin.createProject({ limits: { messagesPerMinute: 2 } });
    const send = await conversationOf(publishableKey);
    expect((await send('one')).status).toBe(200);
    expect((await send('two')).status).toBe(200);
    const third = await send('three');
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = third.body.error.details.retryAfter;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(third.headers.get('retry-after'))).toBe(retryAfter);
  });

  it('monthlyMessages answers 429 until the next month', async () => {
    const { publishableKey } = await e2e.admin.createProject({ limits: { monthlyMessages: 1 } });
    const send = await conversationOf(publishableKey);
    expect((await send('one')).status).toBe(200);
    const second = await send('two');
    expect(second.status).toBe(429);
    const now = new Date();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const expected = Math.ceil((nextMonth - now.getTime()) / 1000);
    expect(Math.abs(second.body.error.details.retryAfter - expected)).toBeLessThan(60);
    expect(second.headers.get('retry-after')).toBe(String(second.body.error.details.retryAfter));
  });

  it('limits are per project', async () => {
    const limited = await e2e.admin.createProject({ limits: { messagesPerMinute: 1 } });
    const other = await e2e.admin.createProject();
    const sendLimited = await conversationOf(limited.publishableKey);
    const sendOther = await conversationOf(other.publishableKey);
    expect((await sendLimited('one')).status).toBe(200);
    expect((await sendLimited('two')).status).toBe(429);
    expect((await sendOther('one')).status).toBe(200);
    expect((await sendOther('two')).status).toBe(200);
  });

  it('refused sends (404 unknown conversation, 409 closed, 422) use neither the minute limit nor the monthly quota', async () => {
    const { publishableKey } = await e2e.admin.createProject({ limits: { messagesPerMinute: 2, monthlyMessages: 2 } });
    const { token } = await newVisitor(e2e.url, publishableKey);
    const post = (conversationId: string, content: string) =>
      http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content }, token });
    const closed = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
    await http(`${e2e.url}/v2/conversations/${closed}/close`, { body: {}, token });
    for (let i = 0; i < 3; i++) {
      expect((await post('00000000-0000-4000-8000-000000000000', 'nobody here')).status).toBe(404);
      expect((await post(closed, 'too late')).status).toBe(409);
      expect((await post(closed, '   ')).status).toBe(422);
    }
    const open = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
    expect((await post(open, 'one')).status).toBe(200);
    expect((await post(open, 'two')).status).toBe(200);
    expect((await post(open, 'three')).status).toBe(429);
  });

  it('changing messagesPerMinute mid-minute keeps the same window', async () => {
    const { project, publishableKey } = await e2e.admin.createProject({ limits: { messagesPerMinute: 3 } });
    const send = await conversationOf(publishableKey);
    for (const content of ['one', 'two', 'three']) expect((await send(content)).status).toBe(200);
    expect((await send('four')).status).toBe(429);
    await e2e.admin.call('PATCH', `/projects/${project.id}`, { limits: { messagesPerMinute: 4 } });
    expect((await send('four again')).status).toBe(200);
    expect((await send('five')).status).toBe(429);
  });
});
