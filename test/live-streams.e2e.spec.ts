import { ManualClock } from '@palaver/platform';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newConversation, newVisitor, startE2eApp, useE2eApp } from './support/e2e-app';
import { natsAndRedisAvailable, natsAndRedisTitle } from './support/nats-and-redis';
import { startSecondGateway, useTwoGatewaysOnNatsAndRedis } from './support/second-gateway';
import { SseClient } from './support/sse';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Resolves with `promise`, or fails saying what did not happen within `ms`. */
const within = async <T>(ms: number, promise: Promise<T>, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
};

/** Every stream ended within `ms`. */
const allEnded = (streams: SseClient[], ms: number, what: string) =>
  within(ms, Promise.all(streams.map((s) => s.ended)), `${what} (${streams.filter((s) => s.open).length} of ${streams.length} still open)`);

const agentMessages = (stream: SseClient, text: string) =>
  stream.events.filter((e) => e.event === 'message.created' && e.data.message?.parts[0]?.text === text);

/** Opens streams until one opens (the gateway frees a slot once it has seen the close), bounded. */
const openOnceFreed = (url: string, headers: Record<string, string>): Promise<SseClient> =>
  vi.waitFor(
    async () => {
      const stream = await SseClient.open(url, headers);
      expect(stream.status, 'the slot is still taken').not.toBe(429);
      return stream;
    },
    { timeout: 3_000, interval: 50 },
  );

describe('live streams follow their credential', () => {
  let e2e: E2eApp;
  const opened: SseClient[] = [];
  const open = async (url: string, headers: Record<string, string>) => {
    const stream = await SseClient.open(url, headers);
    opened.push(stream);
    return stream;
  };
  beforeAll(async () => {
    e2e = await startE2eApp();
  });
  afterEach(() => {
    for (const stream of opened.splice(0)) stream.close();
  });
  afterAll(() => e2e.stop());

  /** A visitor with a conversation held by an admin-named person (who can post into it). */
  const heldConversation = async (projectId: string, publishableKey: string) => {
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    await e2e.admin.call('POST', `/projects/${projectId}/conversations/${conversationId}/handoff`, {
      humanAgent: { name: 'Ada', image: null },
    });
    return { token, conversationId, events: `${e2e.url}/v2/conversations/${conversationId}/events` };
  };

  it('closes every live stream of a revoked key at once, and none receives what the agent posts after', async () => {
    const { project, publishableKey, publishableKeyId } = await e2e.admin.createProject();
    const visitors = await Promise.all([1, 2, 3, 4].map(() => heldConversation(project.id, publishableKey)));
    const streams: SseClient[] = [];
    for (const visitor of visitors) {
      for (let i = 0; i < 4; i++) streams.push(await open(visitor.events, bearer(visitor.token)));
    }
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    // Every stream is live: each sees a message posted before the revocation.
    for (const visitor of visitors) {
      await e2e.admin.call('POST', `/projects/${project.id}/conversations/${visitor.conversationId}/messages`, { content: 'before' });
    }
    for (const stream of streams) await stream.until((e) => e.event === 'message.created' && e.data.message.parts[0].text === 'before');

    await e2e.admin.call('DELETE', `/projects/${project.id}/keys/${publishableKeyId}`);
    for (const visitor of visitors) {
      await e2e.admin.call('POST', `/projects/${project.id}/conversations/${visitor.conversationId}/messages`, { content: 'after' });
    }
    await allEnded(streams, 1_000, 'the streams of the revoked key ended');
    expect(streams.flatMap((s) => agentMessages(s, 'after'))).toEqual([]);
    expect((await SseClient.open(visitors[0]!.events, bearer(visitors[0]!.token))).status).toBe(401);
  });

  it("closes a revoked agent's feed at once: a visitor asking for a person afterwards is not on it", async () => {
    const { project, publishableKey } = await e2e.admin.createProject();
    await e2e.admin.call('PATCH', `/projects/${project.id}`, { handoff: { enabled: true } });
    const ada = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
    const grace = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Grace' });
    const adaFeed = await open(`${e2e.url}/agent/v1/events`, bearer(ada.token));
    const graceFeed = await open(`${e2e.url}/agent/v1/events`, bearer(grace.token));
    expect([adaFeed.status, graceFeed.status]).toEqual([200, 200]);

    await e2e.admin.call('DELETE', `/projects/${project.id}/agents/${ada.id}`);
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'talk to a human please' }, token });
    await allEnded([adaFeed], 1_000, "the revoked agent's feed ended");
    // The other agent's feed stays open and gets the request.
    await graceFeed.until((e) => e.event === 'handoff.requested' && e.data.conversationId === conversationId);
    expect(graceFeed.open).toBe(true);
    expect(adaFeed.events.filter((e) => e.data.conversationId === conversationId)).toEqual([]);
    expect((await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(ada.token))).status).toBe(401);
  });

  it('caps the live streams of a session (429 with Retry-After beyond), freeing a slot on every close', async () => {
    const { project, publishableKey } = await e2e.admin.createProject();
    const visitor = await heldConversation(project.id, publishableKey);
    // Refused before the stream starts (an unknown conversation): holds no slot.
    for (let i = 0; i < 6; i++) {
      const missing = await SseClient.open(`${e2e.url}/v2/conversations/${crypto.randomUUID()}/events`, bearer(visitor.token));
      expect(missing.status).toBe(404);
    }
    const streams: SseClient[] = [];
    for (let i = 0; i < 5; i++) streams.push(await open(visitor.events, bearer(visitor.token)));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = await open(visitor.events, bearer(visitor.token));
    expect(refused.status).toBe(429);
    expect(refused.error.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.error.error.details).toMatchObject({ limit: 'liveStreamsPerSession', max: 5 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Another session of the same visitor has slots of its own.
    const again = await newVisitor(e2e.url, publishableKey);
    expect((await open(`${e2e.url}/v2/conversations/${crypto.randomUUID()}/events`, bearer(again.token))).status).toBe(404);

    // The client goes away: its slot is free again.
    streams[0]!.close();
    const reopened = await openOnceFreed(visitor.events, bearer(visitor.token));
    opened.push(reopened);
    expect(reopened.status).toBe(200);
    expect((await open(visitor.events, bearer(visitor.token))).status).toBe(429);
  });

  it('caps the live feeds of an agent, freeing a slot when one closes', async () => {
    const { project } = await e2e.admin.createProject();
    const ada = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
    const feeds: SseClient[] = [];
    for (let i = 0; i < 10; i++) feeds.push(await open(`${e2e.url}/agent/v1/events`, bearer(ada.token)));
    expect(feeds.every((f) => f.status === 200)).toBe(true);
    const refused = await open(`${e2e.url}/agent/v1/events`, bearer(ada.token));
    expect(refused.status).toBe(429);
    expect(refused.error.error.details).toMatchObject({ limit: 'liveStreamsPerAgent', max: 10 });
    expect(refused.headers.get('retry-after')).not.toBeNull();
    feeds[3]!.close();
    const reopened = await openOnceFreed(`${e2e.url}/agent/v1/events`, bearer(ada.token));
    opened.push(reopened);
    expect(reopened.status).toBe(200);
  });

  it('ends its live streams when a gateway closes, so the close does not wait on them', async () => {
    const { project, publishableKey } = await e2e.admin.createProject();
    const ada = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
    const gateway = await startSecondGateway(e2e, {});
    const { token } = await newVisitor(gateway.url, publishableKey);
    const conversationId = (await http(`${gateway.url}/v2/conversations`, { body: {}, token })).body.id as string;
    const streams = [
      await open(`${gateway.url}/v2/conversations/${conversationId}/events`, bearer(token)),
      await open(`${gateway.url}/agent/v1/events`, bearer(ada.token)),
    ];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    await within(3_000, gateway.close(), 'the gateway closed');
    await allEnded(streams, 1_000, 'the streams of the closed gateway ended');
  });

  it("releases what a revoked agent holds: another agent may take it, and the visitor's messages get AI replies again", async () => {
    const { project, publishableKey } = await e2e.admin.createProject();
    await e2e.admin.call('PATCH', `/projects/${project.id}`, { handoff: { enabled: true } });
    const ada = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
    const grace = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Grace' });
    const held: { token: string; conversationId: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const { token, conversationId } = await newConversation(e2e.url, publishableKey);
      await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'talk to a human' }, token });
      expect((await http(`${e2e.url}/agent/v1/queue/claim`, { method: 'POST', token: ada.token })).body.id).toBe(conversationId);
      held.push({ token, conversationId });
    }
    const [first, second] = held as [(typeof held)[0], (typeof held)[0]];
    const live = await open(`${e2e.url}/v2/conversations/${first.conversationId}/events`, bearer(first.token));
    expect(
      (await http(`${e2e.url}/v2/conversations/${first.conversationId}/messages`, { body: { content: 'hello?' }, token: first.token }))
        .status,
    ).toBe(202);

    await e2e.admin.call('DELETE', `/projects/${project.id}/agents/${ada.id}`);
    // Released by the time the revocation answers.
    for (const { conversationId } of held) {
      const seen = await http(`${e2e.url}/agent/v1/conversations/${conversationId}`, { token: grace.token });
      expect(seen.body).toMatchObject({ handoff: 'none', humanAgent: null });
    }
    await live.until((e) => e.event === 'handoff.released');
    const answered = await http(`${e2e.url}/v2/conversations/${first.conversationId}/messages`, {
      body: { content: 'What are your opening hours?' },
      token: first.token,
    });
    expect(answered.status).toBe(200);
    expect(answered.body.steps[0].content[0].text.length).toBeGreaterThan(0);
    // Another agent may take the other one (no longer 409).
    const taken = await http(`${e2e.url}/agent/v1/conversations/${second.conversationId}/handoff`, { method: 'POST', token: grace.token });
    expect(taken.status).toBe(200);
    expect(taken.body.humanAgent).toMatchObject({ id: grace.id });
    // Revoking again (idempotent) leaves Grace's conversation alone.
    await e2e.admin.call('DELETE', `/projects/${project.id}/agents/${ada.id}`);
    const still = await http(`${e2e.url}/agent/v1/conversations/${second.conversationId}`, { token: grace.token });
    expect(still.body.humanAgent).toMatchObject({ id: grace.id });
  });
});

describe('a live stream of a session that lapses', () => {
  // Sessions lapse by identity's clock, which the test moves; the streams' expiry checks run on it.
  const clock = new ManualClock(new Date());
  const e2e = useE2eApp({ SESSION_IDLE_TTL_SECONDS: '3' }, { clock });
  /** Resolves once the registry has set the stream's next expiry check (after opening it, or after a check). */
  const checkSet = () => expect.poll(() => clock.pendingTimers, { message: "the stream's next expiry check is set" }).toBe(1);

  it('ends when the session expires, and not before when the session was used meanwhile', async () => {
    const { project, publishableKey } = await e2e.admin.createProject();
    const post = (conversationId: string, content: string) =>
      e2e.admin.call('POST', `/projects/${project.id}/conversations/${conversationId}/messages`, { content });
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    await e2e.admin.call('POST', `/projects/${project.id}/conversations/${conversationId}/handoff`, {
      humanAgent: { name: 'Ada', image: null },
    });
    const events = `${e2e.url}/v2/conversations/${conversationId}/events`;
    const idle = await SseClient.open(events, bearer(token));
    expect(idle.status).toBe(200);
    try {
      await checkSet();
      clock.advance(2_999);
      // Not before the expiry: the stream still receives a message.
      await post(conversationId, 'before expiry');
      await idle.until((e) => e.event === 'message.created' && e.data.message.parts[0].text === 'before expiry');
      clock.advance(1);
      await within(5_000, idle.ended, 'the stream of the idle session ended');
      await post(conversationId, 'after expiry');
      expect(agentMessages(idle, 'after expiry')).toEqual([]);
      expect((await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).status).toBe(401);
    } finally {
      idle.close();
    }

    // A session in use is extended: its stream outlives the first expiry and ends at the new one.
    const used = await newVisitor(e2e.url, publishableKey);
    const usedConversation = (await http(`${e2e.url}/v2/conversations`, { body: {}, token: used.token })).body.id as string;
    await e2e.admin.call('POST', `/projects/${project.id}/conversations/${usedConversation}/handoff`, {
      humanAgent: { name: 'Ada', image: null },
    });
    const stream = await SseClient.open(`${e2e.url}/v2/conversations/${usedConversation}/events`, bearer(used.token));
    try {
      await checkSet();
      clock.advance(1_800);
      expect((await http(`${e2e.url}/v2/conversations/${usedConversation}`, { token: used.token })).status).toBe(200);
      clock.advance(1_700);
      // Past the first expiry (3 s after opening): the check finds the session extended; still live, it receives a message.
      await checkSet();
      await post(usedConversation, 'still here');
      await stream.until((e) => e.event === 'message.created' && e.data.message.parts[0].text === 'still here');
      expect(stream.open).toBe(true);
      clock.advance(1_300);
      await within(4_000, stream.ended, 'the stream of the extended session ended');
    } finally {
      stream.close();
    }
  });
});

describe.skipIf(!natsAndRedisAvailable)(natsAndRedisTitle('live streams behind two gateways on NATS and Redis'), () => {
  const { e2e, second: other } = useTwoGatewaysOnNatsAndRedis();

  it('a revocation made through one gateway ends the streams held on the other at once', async () => {
    expect(e2e.app.infra.transport.kind).toBe('nats');
    const { project, publishableKey, publishableKeyId } = await e2e.admin.createProject();
    const ada = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
    const { token } = await newVisitor(other.url, publishableKey);
    const conversationId = (await http(`${other.url}/v2/conversations`, { body: {}, token })).body.id as string;
    await e2e.admin.call('POST', `/projects/${project.id}/conversations/${conversationId}/handoff`, {
      humanAgent: { name: 'Ada', image: null },
    });
    const visitorStream = await SseClient.open(`${other.url}/v2/conversations/${conversationId}/events`, bearer(token));
    const feed = await SseClient.open(`${other.url}/agent/v1/events`, bearer(ada.token));
    try {
      expect([visitorStream.status, feed.status]).toEqual([200, 200]);
      await visitorStream.until((e) => e.event === 'handoff.claimed');

      await e2e.admin.call('DELETE', `/projects/${project.id}/keys/${publishableKeyId}`);
      await e2e.admin.call('POST', `/projects/${project.id}/conversations/${conversationId}/messages`, { content: 'after' });
      await allEnded([visitorStream], 1_000, "the other gateway's stream of the revoked key ended");
      expect(agentMessages(visitorStream, 'after')).toEqual([]);
      expect(feed.open).toBe(true);

      await e2e.admin.call('DELETE', `/projects/${project.id}/agents/${ada.id}`);
      await allEnded([feed], 1_000, "the other gateway's feed of the revoked agent ended");
    } finally {
      visitorStream.close();
      feed.close();
    }
  });
});
