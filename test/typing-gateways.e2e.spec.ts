import { expect, it } from 'vitest';
import { http, newConversation } from './support/e2e-app';
import { describeWithTwoGateways } from './support/second-gateway';
import { SseClient } from './support/sse';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Typing crosses gateway instances over the pub/sub port (Redis when REDIS_URL is set): the
 * visitor follows the conversation through one gateway, the agent works through another.
 */
describeWithTwoGateways('typing between two gateways', (start) => {
  it('carries the agent’s typing to the visitor’s gateway and the visitor’s to the agent’s', async () => {
    const { e2e, other } = await start();
    const { project, publishableKey } = await e2e.admin.createProject();
    await e2e.admin.call('PATCH', `/projects/${project.id}`, { handoff: { enabled: true } });
    const ada = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Can I talk to a human please?' }, token });
    expect((await http(`${other}/agent/v1/conversations/${conversationId}/handoff`, { method: 'POST', token: ada.token })).status).toBe(
      200,
    );

    const live = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, bearer(token));
    const feed = await SseClient.open(`${other}/agent/v1/events`, bearer(ada.token));
    try {
      expect((await http(`${other}/agent/v1/conversations/${conversationId}/typing`, { method: 'POST', token: ada.token })).status).toBe(
        204,
      );
      const agentTyping = await live.until((e) => e.event === 'typing');
      expect(agentTyping).toMatchObject({ id: null, data: { by: 'agent', conversationId, humanAgent: { id: ada.id, name: 'Ada' } } });

      expect((await http(`${e2e.url}/v2/conversations/${conversationId}/typing`, { method: 'POST', token })).status).toBe(204);
      const visitorTyping = await feed.until((e) => e.event === 'typing' && e.data.conversationId === conversationId);
      expect(visitorTyping).toMatchObject({ id: null, data: { by: 'visitor', conversationId } });
    } finally {
      live.close();
      feed.close();
    }
  });
});
