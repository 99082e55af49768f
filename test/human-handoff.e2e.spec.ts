import { describe, expect, it } from 'vitest';
import { http, newConversation, useE2eApp } from './support/e2e-app';

describe('a conversation handled by a human agent', () => {
  const e2e = useE2eApp();

  it('queues visitor messages with 202 text/plain, generates no AI reply, and shows the agent', async () => {
    const { project, publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    const humanAgent = { name: 'Ada', image: 'https://img.example/ada.png' };
    await e2e.admin.call('POST', `/projects/${project.id}/conversations/${conversationId}/handoff`, { humanAgent });

    for (const stream of [false, true]) {
      const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        body: { content: 'a person please', stream },
        token,
      });
      expect(sent.status).toBe(202);
      expect(sent.headers.get('content-type')).toContain('text/plain');
      expect(sent.text.length).toBeGreaterThan(0);
    }
    await e2e.admin.call('POST', `/projects/${project.id}/conversations/${conversationId}/messages`, { content: 'Hi, Ada here.' });

    const got = (await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body;
    expect(got).toMatchObject({ isHumanHandled: true, humanAgent });
    expect(got.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'user', 'human_agent']);
    expect(got.messages[2].metadata.humanAgent).toEqual(humanAgent);
    const agentOnly = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=human_agent`, { token })).body;
    expect(agentOnly.data).toHaveLength(1);
  });
});
