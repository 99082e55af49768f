import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeOpenAiServer } from '@palaver/platform/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isAlive, printed, startChildApp } from './support/child-app';
import { http, startE2eApp } from './support/e2e-app';

/** Everything a visitor and an owner wrote, read back through the API. */
const snapshot = async (url: string, token: string, conversationId: string) => {
  const conversation = (await http(`${url}/v2/conversations/${conversationId}`, { token })).body;
  return {
    status: conversation.status,
    title: conversation.title,
    messages: conversation.messages.map((m: any) => ({
      id: m.id,
      role: m.role,
      text: m.parts[0]?.text,
      status: m.status,
      feedback: m.feedback,
    })),
  };
};

describe('restart', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write across a clean restart', async () => {
    const first = await startE2eApp();
    dirs.push(first.dataDir);
    const { project, publishableKey } = await first.admin.createProject({ name: 'durable' });
    const init = await http(`${first.url}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'restart-device' } });
    const token = init.body.sessionToken;
    const conversationId = (await http(`${first.url}/v2/conversations`, { body: {}, token })).body.id;
    await http(`${first.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'remember me' }, token });
    const assistant = (await http(`${first.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data[0];
    await http(`${first.url}/v2/messages/${assistant.id}/feedback`, { body: { feedback: 'like' }, token });
    const before = await snapshot(first.url, token, conversationId);
    await first.stop({ keepData: true });

    const second = await startE2eApp({}, { dataDir: first.dataDir });
    expect(await snapshot(second.url, token, conversationId)).toEqual(before);
    expect((await second.admin.call('GET', `/projects/${project.id}`)).name).toBe('durable');
    const again = await http(`${second.url}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'restart-device' } });
    expect(again.status).toBe(200);
    expect(again.body.visitor.id).toBe(init.body.visitor.id);
    await second.stop({ keepData: true });
  });

  it('keeps every acknowledged write after kill -9 of `pnpm start`', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'palaver-kill-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'true' };
    const first = await startChildApp(env);
    const apiKey = printed(first, 'Publishable key');
    const adminToken = printed(first, 'Admin token');
    const token = (await http(`${first.url}/v2/identity/init`, { body: { apiKey, saVid: 'kill-device' } })).body.sessionToken;
    const conversationId = (await http(`${first.url}/v2/conversations`, { body: {}, token })).body.id;
    await http(`${first.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'What are your opening hours?' }, token });
    const assistant = (await http(`${first.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data[0];
    expect(assistant.status).toBe('complete');
    await http(`${first.url}/v2/messages/${assistant.id}/feedback`, { body: { feedback: 'dislike' }, token });
    const before = await snapshot(first.url, token, conversationId);
    await first.kill('SIGKILL');
    // The app itself must be dead, not just a wrapper: nothing answers on its port any more.
    expect(isAlive(first.process.pid!)).toBe(false);
    await expect(fetch(`${first.url}/health`)).rejects.toThrow();

    const second = await startChildApp(env);
    try {
      expect(printed(second, 'Publishable key')).toBe(apiKey);
      expect(printed(second, 'Admin token')).toBe(adminToken);
      expect(await snapshot(second.url, token, conversationId)).toEqual(before);
      const sent = await http(`${second.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'still there?' }, token });
      expect(sent.status).toBe(200);
    } finally {
      await second.kill('SIGKILL');
    }
  }, 120_000);

  it('a reply in flight at kill -9 does not block the conversation after the restart', async () => {
    const fake = await FakeOpenAiServer.start();
    const dataDir = await mkdtemp(join(tmpdir(), 'palaver-kill-reply-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'true', OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' };
    try {
      const first = await startChildApp(env);
      const apiKey = printed(first, 'Publishable key');
      const token = (await http(`${first.url}/v2/identity/init`, { body: { apiKey, saVid: 'crash-device' } })).body.sessionToken;
      const conversationId = (await http(`${first.url}/v2/conversations`, { body: {}, token })).body.id;
      fake.scriptChat({ kind: 'hang', afterChunks: 1, text: 'half an answer' });
      const inFlight = http(`${first.url}/v2/conversations/${conversationId}/messages`, {
        body: { content: 'hello?', stream: true },
        token,
      }).catch((err: unknown) => err);
      await vi.waitFor(() => expect(fake.requests.some((r) => r.path.endsWith('/chat/completions'))).toBe(true), {
        timeout: 10_000,
        interval: 100,
      });
      const streaming = (await http(`${first.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
      expect(streaming.map((m: any) => m.status)).toEqual(['streaming']);
      await first.kill('SIGKILL');
      expect(isAlive(first.process.pid!)).toBe(false);
      await inFlight;

      const second = await startChildApp(env);
      try {
        // The sweep fails it at start, or within a few seconds when it began just before the crash.
        const assistantMessages = async () =>
          (await http(`${second.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
        await vi.waitFor(async () => expect((await assistantMessages()).map((m: any) => m.status)).toEqual(['error']), {
          timeout: 15_000,
          interval: 200,
        });
        const after = await assistantMessages();
        expect(after[0].error).toMatch(/interrupted/);
        const next = await http(`${second.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'still there?' }, token });
        expect(next.status, next.text).toBe(200);
      } finally {
        await second.kill('SIGKILL');
      }
    } finally {
      await fake.close();
    }
  }, 120_000);
});
