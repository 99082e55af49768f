import { describe, expect, it, vi } from 'vitest';
import { agentApi, bearer, handoffProject } from './support/agent-team';
import { http, newVisitor, useE2eApp } from './support/e2e-app';
import { SseClient } from './support/sse';
import { parseUiMessageStream } from './support/ui-stream';

describe('human agents and the handoff queue', () => {
  const e2e = useE2eApp();

  const agentCall = agentApi(e2e);
  const setup = () => handoffProject(e2e);

  const openConversation = async (url: string, publishableKey: string) => {
    const { token } = await newVisitor(url, publishableKey);
    const conversationId = (await http(`${url}/v2/conversations`, { body: {}, token })).body.id as string;
    return { token, conversationId };
  };

  it('adds agents with a token shown once, lists them without it, and a revoked token is 401 at once', async () => {
    const { project, ada } = await setup();
    expect(ada.token).toMatch(/^ak_[0-9A-Za-z]{43}$/);
    expect(ada).toMatchObject({ name: 'Ada', email: 'ada@example.com', image: 'https://img.example/ada.png', revokedAt: null });
    const listed = await e2e.admin.call('GET', `/projects/${project.id}/agents`);
    expect(listed.data.map((a: { name: string }) => a.name)).toEqual(['Ada', 'Grace']);
    expect(JSON.stringify(listed)).not.toContain(ada.token);

    expect((await agentCall(ada.token, 'GET', '/me')).body).toMatchObject({ agentId: ada.id, projectId: project.id, name: 'Ada' });
    await e2e.admin.call('DELETE', `/projects/${project.id}/agents/${ada.id}`);
    const revoked = await agentCall(ada.token, 'GET', '/queue');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('UNAUTHORIZED');
    expect((await agentCall('ak_nope', 'GET', '/queue')).status).toBe(401);
    expect((await http(`${e2e.url}/agent/v1/queue`)).status).toBe(401);

    const bad = await http(`${e2e.url}/admin/v1/projects/${project.id}/agents`, {
      body: { name: 'x'.repeat(201), email: 'not-an-email' },
      token: 'test-admin-token',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('runs the whole cycle: visitor asks for a person, two agents race, the reply is live, release gives the AI back', async () => {
    const { publishableKey, ada, grace } = await setup();
    const { token, conversationId } = await openConversation(e2e.url, publishableKey);
    const live = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, bearer(token));
    const adaFeed = await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(ada.token));
    expect(live.status).toBe(200);
    try {
      // The visitor asks for a person: queued, and told so in the reply (streamed like any reply).
      const asked = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        body: { content: 'Can I talk to a human please?', stream: true },
        token,
      });
      expect(asked.status).toBe(200);
      expect((await parseUiMessageStream(asked.text)).text).toMatch(/agent will answer/i);
      await live.until((e) => e.event === 'handoff.requested');
      const queuedEvent = await adaFeed.until((e) => e.event === 'handoff.requested' && e.data.conversationId === conversationId);
      expect(queuedEvent.data.conversation.unansweredMessages.map((m: { parts: { text: string }[] }) => m.parts[0]!.text)).toContain(
        'Can I talk to a human please?',
      );

      // While it waits the AI stays silent: 202 as the spec says for a human-handled conversation.
      const waiting = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Hello?' }, token });
      expect(waiting.status).toBe(202);
      const queue = (await agentCall(ada.token, 'GET', '/queue')).body.data;
      expect(queue.map((c: { id: string }) => c.id)).toEqual([conversationId]);
      expect(queue[0].unansweredMessages).toHaveLength(2);

      // Both agents claim at once: exactly one gets it, the other finds the queue empty.
      const [a, g] = await Promise.all([agentCall(ada.token, 'POST', '/queue/claim'), agentCall(grace.token, 'POST', '/queue/claim')]);
      expect([a.status, g.status].sort()).toEqual([200, 204]);
      const [winner, loser] = a.status === 200 ? [ada, grace] : [grace, ada];
      expect((a.status === 200 ? a : g).body).toMatchObject({ id: conversationId, handoff: 'claimed', humanAgent: { id: winner.id } });
      expect((await agentCall(loser.token, 'POST', `/conversations/${conversationId}/messages`, { content: 'me too' })).status).toBe(409);
      expect((await agentCall(loser.token, 'POST', `/conversations/${conversationId}/handoff`)).status).toBe(409);

      // The holder answers: the visitor sees it live, with the agent named.
      const answer = await agentCall(winner.token, 'POST', `/conversations/${conversationId}/messages`, { content: 'Hi, a person here.' });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ role: 'human_agent', metadata: { humanAgent: { name: winner.name } } });
      const seen = await live.until((e) => e.event === 'message.created' && e.data.message.role === 'human_agent');
      expect(seen.data.message.parts[0].text).toBe('Hi, a person here.');
      expect(seen.data.conversation).toMatchObject({ isHumanHandled: true, humanAgent: { name: winner.name } });

      // The visitor writes back: the holder's feed shows it.
      const winnerFeed = winner === ada ? adaFeed : await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(winner.token));
      await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Thanks, my order is late' }, token });
      const visitorMessage = await winnerFeed.until((e) => e.event === 'message.visitor');
      expect(visitorMessage.data.message.parts[0].text).toBe('Thanks, my order is late');
      if (winnerFeed !== adaFeed) winnerFeed.close();

      // Release: the AI answers again, and the visitor saw the release.
      expect((await agentCall(loser.token, 'POST', `/conversations/${conversationId}/release`)).status).toBe(409);
      const released = await agentCall(winner.token, 'POST', `/conversations/${conversationId}/release`);
      expect(released.body).toMatchObject({ handoff: 'none', humanAgent: null });
      await live.until((e) => e.event === 'handoff.released');
      const ai = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        body: { content: 'What does shipping cost?' },
        token,
      });
      expect(ai.status).toBe(200);
      expect(ai.body.steps[0].content[0].text.length).toBeGreaterThan(0);
      const aiLive = await live.until(
        (e) =>
          e.event === 'message.updated' &&
          e.data.message.role === 'assistant' &&
          e.data.message.status === 'complete' &&
          e.data.message.parts[0].text === ai.body.steps[0].content[0].text,
      );
      expect(aiLive.data.conversation.isHumanHandled).toBe(false);

      // Every transition is an event of the conversation, in order, on the durable stream (read by analytics, eventually).
      const projectId = (await agentCall(winner.token, 'GET', '/me')).body.projectId;
      const transitions = async (): Promise<string[]> =>
        (await e2e.admin.call('GET', `/projects/${projectId}/events?limit=100`)).data
          .filter((e: { conversationId: string; type: string }) => e.conversationId === conversationId)
          .map((e: { type: string }) => e.type)
          .filter((t: string) => t.startsWith('handoff') || t === 'conversation.handoff');
      await vi.waitFor(async () => expect((await transitions()).length).toBeGreaterThanOrEqual(3), { timeout: 5_000, interval: 100 });
      expect(await transitions()).toEqual(['handoff.requested', 'conversation.handoff', 'handoff.released']);
    } finally {
      live.close();
      adaFeed.close();
    }
  });

  it('resumes the visitor stream after Last-Event-ID, and only the owner may open it', async () => {
    const { publishableKey } = await setup();
    const { token, conversationId } = await openConversation(e2e.url, publishableKey);
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'first question' }, token });
    const all = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, bearer(token));
    const firstReply = await all.until((e) => e.event === 'message.updated');
    all.close();
    const resumed = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, {
      ...bearer(token),
      'last-event-id': firstReply.id!,
    });
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'second question' }, token });
    const next = await resumed.until((e) => e.event === 'message.updated');
    resumed.close();
    expect(Number(next.id)).toBeGreaterThan(Number(firstReply.id));
    expect(resumed.events.some((e) => e.data.message?.parts[0]?.text === 'first question')).toBe(false);
    expect(resumed.events.some((e) => e.data.message?.parts[0]?.text === 'second question')).toBe(true);

    const other = await newVisitor(e2e.url, publishableKey);
    const forbidden = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, bearer(other.token));
    expect(forbidden.status).toBe(403);
    expect(forbidden.error.error.code).toBe('FORBIDDEN');
    expect((await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, {})).status).toBe(401);
  });

  it('lists what an agent holds with the feed position, and the feed followed from it brings only what came after', async () => {
    const { publishableKey, ada, grace } = await setup();
    const first = await openConversation(e2e.url, publishableKey);
    const second = await openConversation(e2e.url, publishableKey);
    for (const { token, conversationId } of [first, second]) {
      await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'talk to a human' }, token });
    }
    expect((await agentCall(ada.token, 'POST', `/conversations/${first.conversationId}/handoff`)).status).toBe(200);
    expect((await agentCall(grace.token, 'POST', `/conversations/${second.conversationId}/handoff`)).status).toBe(200);

    const held = await agentCall(ada.token, 'GET', '/conversations');
    expect(held.status).toBe(200);
    expect(held.body.data.map((c: { id: string }) => c.id)).toEqual([first.conversationId]);
    expect(held.body.data[0]).toMatchObject({ handoff: 'claimed', humanAgent: { id: ada.id, name: 'Ada' } });
    expect(Number(held.body.feedCursor)).toBeGreaterThanOrEqual(4); // two requests, two claims

    const feed = await SseClient.open(`${e2e.url}/agent/v1/events?after=${held.body.feedCursor}`, bearer(ada.token));
    try {
      await http(`${e2e.url}/v2/conversations/${first.conversationId}/messages`, { body: { content: 'still there?' }, token: first.token });
      const next = await feed.until((e) => e.event === 'message.visitor');
      expect(next.data.message.parts[0].text).toBe('still there?');
      expect(feed.events.map((e) => e.event)).toEqual(['message.visitor']);
    } finally {
      feed.close();
    }
    expect((await agentCall(grace.token, 'GET', '/conversations')).body.data.map((c: { id: string }) => c.id)).toEqual([
      second.conversationId,
    ]);
    // Released: no longer held.
    await agentCall(ada.token, 'POST', `/conversations/${first.conversationId}/release`);
    expect((await agentCall(ada.token, 'GET', '/conversations')).body.data).toEqual([]);
  });

  it('an agent of project A can touch nothing of project B', async () => {
    const a = await setup();
    const b = await setup();
    const { token, conversationId } = await openConversation(e2e.url, b.publishableKey);
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'talk to a human' }, token });
    expect((await agentCall(a.ada.token, 'GET', '/queue')).body.data).toEqual([]);
    expect((await agentCall(a.ada.token, 'POST', '/queue/claim')).status).toBe(204);
    for (const [method, path, body] of [
      ['GET', `/conversations/${conversationId}`],
      ['GET', `/conversations/${conversationId}/messages`],
      ['POST', `/conversations/${conversationId}/handoff`],
      ['POST', `/conversations/${conversationId}/release`],
      ['POST', `/conversations/${conversationId}/messages`, { content: 'hello from A' }],
    ] as const) {
      const result = await agentCall(a.ada.token, method, path, body);
      expect(result.status, `${method} ${path}`).toBe(404);
    }
    const feed = await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(a.ada.token));
    const bFeed = await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(b.ada.token));
    await bFeed.until((e) => e.data.conversationId === conversationId);
    bFeed.close();
    feed.close();
    expect(feed.events.filter((e) => e.data.conversationId === conversationId)).toEqual([]);
    // B's own agent sees and takes it.
    expect((await agentCall(b.ada.token, 'POST', '/queue/claim')).body.id).toBe(conversationId);
  });
});
