import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { agentApi, bearer, handoffProject } from './support/agent-team';
import { http, newConversation, newVisitor, useE2eApp } from './support/e2e-app';
import { SseClient } from './support/sse';

describe('typing indicators (ephemeral, both ways)', () => {
  const e2e = useE2eApp();

  const agentCall = agentApi(e2e);
  const setup = () => handoffProject(e2e);

  const conversationOf = async (publishableKey: string, holder?: { token: string }) => {
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    if (holder) {
      await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Can I talk to a human please?' }, token });
      expect((await agentCall(holder.token, 'POST', `/conversations/${conversationId}/handoff`)).status).toBe(200);
    }
    return { token, conversationId };
  };

  const typingOf = (client: SseClient, conversationId: string) =>
    client.events.filter((e) => e.event === 'typing' && e.data.conversationId === conversationId);

  it('carries the holder’s typing to the visitor and the visitor’s to the agents, without an SSE id, and stores nothing', async () => {
    const { publishableKey, ada, grace } = await setup();
    const { token, conversationId } = await conversationOf(publishableKey, ada);
    const live = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, bearer(token));
    const adaFeed = await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(ada.token));
    const graceFeed = await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(grace.token));
    const streamId = `conversation-${conversationId}`;
    const storedBefore = await e2e.app.infra.eventStore.readStream(streamId);
    try {
      const agentTyping = await agentCall(ada.token, 'POST', `/conversations/${conversationId}/typing`);
      expect(agentTyping.status).toBe(204);
      const seen = await live.until((e) => e.event === 'typing');
      expect(seen.id).toBeNull();
      expect(seen.data).toEqual({
        type: 'typing',
        occurredAt: expect.any(String),
        conversationId,
        by: 'agent',
        humanAgent: { id: ada.id, name: 'Ada', image: 'https://img.example/ada.png' },
      });

      const visitorTyping = await http(`${e2e.url}/v2/conversations/${conversationId}/typing`, { method: 'POST', token });
      expect(visitorTyping.status).toBe(204);
      for (const feed of [adaFeed, graceFeed]) {
        const typing = await feed.until((e) => e.event === 'typing' && e.data.conversationId === conversationId);
        expect(typing.id).toBeNull();
        expect(typing.data).toEqual({ type: 'typing', occurredAt: expect.any(String), conversationId, by: 'visitor' });
      }

      // Extras within 2 s are dropped (still 204): the message after them comes with no second typing before it.
      for (let i = 0; i < 3; i++) {
        expect((await http(`${e2e.url}/v2/conversations/${conversationId}/typing`, { method: 'POST', token })).status).toBe(204);
        expect((await agentCall(ada.token, 'POST', `/conversations/${conversationId}/typing`)).status).toBe(204);
      }
      const message = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Here I am' }, token });
      expect(message.status).toBe(202);
      await adaFeed.until((e) => e.event === 'message.visitor' && e.data.conversationId === conversationId);
      const answer = await agentCall(ada.token, 'POST', `/conversations/${conversationId}/messages`, { content: 'Hello' });
      await live.until((e) => e.event === 'message.created' && e.data.message.id === answer.body.id);
      expect(typingOf(adaFeed, conversationId)).toHaveLength(1);
      expect(live.events.filter((e) => e.event === 'typing')).toHaveLength(1);

      // Nothing was stored: the stream holds the messages only, and a replay of either feed has no typing.
      const stored = await e2e.app.infra.eventStore.readStream(streamId);
      expect(stored.slice(storedBefore.length).map((e) => e.type)).toEqual(['UserMessagePosted', 'HumanAgentMessagePosted']);
      const replayed = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events?after=0`, bearer(token));
      await replayed.until((e) => e.event === 'message.created' && e.data.message.id === answer.body.id);
      expect(replayed.events.map((e) => e.event)).not.toContain('typing');
      replayed.close();
      const replayedFeed = await SseClient.open(`${e2e.url}/agent/v1/events?after=0`, bearer(ada.token));
      await replayedFeed.until((e) => e.event === 'message.agent' && e.data.conversationId === conversationId);
      expect(replayedFeed.events.map((e) => e.event)).not.toContain('typing');
      replayedFeed.close();
    } finally {
      live.close();
      adaFeed.close();
      graceFeed.close();
    }
  });

  it('lets only the holder type (409), only the owner visitor (403), and keeps typing in AI conversations from the agents', async () => {
    const { publishableKey, ada, grace } = await setup();
    const held = await conversationOf(publishableKey, ada);
    const notHolder = await agentCall(grace.token, 'POST', `/conversations/${held.conversationId}/typing`);
    expect(notHolder.status).toBe(409);
    expect(notHolder.body.error).toMatchObject({ code: 'CONFLICT', details: { conflictingField: 'humanAgent' } });
    const ai = await conversationOf(publishableKey);
    expect((await agentCall(ada.token, 'POST', `/conversations/${ai.conversationId}/typing`)).status).toBe(409);
    const unknown = await agentCall(ada.token, 'POST', `/conversations/${randomUUID()}/typing`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    expect((await http(`${e2e.url}/agent/v1/conversations/${held.conversationId}/typing`, { method: 'POST' })).status).toBe(401);

    const stranger = await newVisitor(e2e.url, publishableKey);
    const foreign = await http(`${e2e.url}/v2/conversations/${held.conversationId}/typing`, { method: 'POST', token: stranger.token });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('FORBIDDEN');
    expect((await http(`${e2e.url}/v2/conversations/${randomUUID()}/typing`, { method: 'POST', token: stranger.token })).status).toBe(404);
    expect((await http(`${e2e.url}/v2/conversations/${held.conversationId}/typing`, { method: 'POST' })).status).toBe(401);

    // A visitor typing where the AI answers reaches no agent; the held conversation's signal after it does.
    const feed = await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(ada.token));
    try {
      expect((await http(`${e2e.url}/v2/conversations/${ai.conversationId}/typing`, { method: 'POST', token: ai.token })).status).toBe(204);
      expect((await http(`${e2e.url}/v2/conversations/${held.conversationId}/typing`, { method: 'POST', token: held.token })).status).toBe(
        204,
      );
      await feed.until((e) => e.event === 'typing' && e.data.conversationId === held.conversationId);
      expect(typingOf(feed, ai.conversationId)).toEqual([]);
    } finally {
      feed.close();
    }
  });
});
