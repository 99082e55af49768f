import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, printed, startChildApp } from './support/child-app';
import { http, startE2eApp } from './support/e2e-app';

/** Everything a visitor and an owner wrote, read back through the API. */
const snapshot = async (url: string, token: string, conversationId: string) => {
  const conversation = (await http(`${url}/v2/conversations/${conversationId}`, { token })).body;
  return {
    status: conversation.status,
    title: conversation.title,
    messages: conversation.messages.map((m: any) => ({ id: m.id, role: m.role, text: m.parts[0]?.text, status: m.status, feedback: m.feedback })),
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
});
