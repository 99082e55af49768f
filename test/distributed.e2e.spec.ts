import { infraAvailable, infraUrl } from '@palaver/platform/testing';
import { describe, expect, it, vi } from 'vitest';
import { http, newVisitor, useE2eApp } from './support/e2e-app';
import { SseClient } from './support/sse';
import { parseUiMessageStream } from './support/ui-stream';
import { epochSeconds, signUserToken } from './support/user-token';

const available = (await infraAvailable('nats')) && (await infraAvailable('redis'));

describe.skipIf(!available)(
  `the product on NATS (transport, JetStream) and Redis (BullMQ, pub/sub, sessions, limits)${available ? '' : ' (NATS or Redis unreachable: skipped)'}`,
  () => {
    const e2e = useE2eApp({ NATS_URL: infraUrl('nats'), REDIS_URL: infraUrl('redis') });

    it('runs the visitor journey, and analytics reads the feedback from JetStream', async () => {
      expect(e2e.app.infra.transport.kind).toBe('nats');
      const { project, publishableKey } = await e2e.admin.createProject({ limits: { messagesPerMinute: 3 } });
      await e2e.admin.call('POST', `/projects/${project.id}/qnas`, {
        question: 'What are your opening hours?',
        answer: 'Seven days a week, eight to eight.',
      });
      const { token } = await newVisitor(e2e.url, publishableKey);
      expect((await http(`${e2e.url}/v2/identity/me`, { token })).status).toBe(200);
      const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;

      const json = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        body: { content: 'What are your opening hours?' },
        token,
      });
      expect(json.status).toBe(200);
      expect(json.body.steps[0].content[0].text).toContain('Seven days a week, eight to eight.');

      const streamed = await fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content: 'When are you open?', stream: true }),
      });
      const parsed = await parseUiMessageStream(await streamed.text());
      expect(parsed.chunks.map((c) => c.type).slice(0, 3)).toEqual(['start', 'start-step', 'text-start']);
      const assistant = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
      expect(assistant.at(-1).parts[0].text).toBe(parsed.text);

      await http(`${e2e.url}/v2/messages/${assistant[0].id}/feedback`, { body: { feedback: 'like' }, token });
      const feed: any[] = await vi.waitFor(
        async () => {
          const events = (await e2e.admin.call('GET', `/projects/${project.id}/events?type=feedback`)).data;
          expect(events).not.toHaveLength(0);
          return events;
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(feed.map((e) => e.data.feedback)).toEqual(['like']);

      // The rate limit lives in Redis: the third message this minute is the last one allowed.
      expect((await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'three' }, token })).status).toBe(
        200,
      );
      const fourth = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'four' }, token });
      expect(fourth.status).toBe(429);
    });

    it('serves surface B and the handoff queue over NATS: claim, agent reply live, release', async () => {
      const { project, publishableKey, privateKey } = await e2e.admin.createProject();
      await e2e.admin.call('PATCH', `/projects/${project.id}`, { handoff: { enabled: true } });
      const agent = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
      const chatId = crypto.randomUUID();
      const sk = { 'x-service-key': privateKey };
      const asked = await http(`${e2e.url}/api/customers/u-1/chats/${chatId}/chat`, {
        body: { message: { role: 'user', parts: [{ type: 'text', text: 'talk to a human' }] }, streaming: false },
        headers: sk,
      });
      expect(asked.status).toBe(200);
      // The customer's own session: a user token signed with the project's identity secret.
      const secret = (await e2e.admin.call('POST', `/projects/${project.id}/identity-secret`)).secret;
      const userToken = signUserToken({ sub: 'u-1', exp: epochSeconds(600) }, secret);
      const token = (await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'device-1', userToken } })).body
        .sessionToken as string;
      const live = await SseClient.open(`${e2e.url}/v2/conversations/${chatId}/events`, { authorization: `Bearer ${token}` });
      try {
        const claimed = await http(`${e2e.url}/agent/v1/queue/claim`, { method: 'POST', token: agent.token });
        expect(claimed.body.id).toBe(chatId);
        await http(`${e2e.url}/agent/v1/conversations/${chatId}/messages`, { body: { content: 'Ada here' }, token: agent.token });
        await live.until((e) => e.event === 'message.created' && e.data.message.role === 'human_agent', 10_000);
        await http(`${e2e.url}/agent/v1/conversations/${chatId}/release`, { method: 'POST', token: agent.token });
        const chat = (await http(`${e2e.url}/api/customers/u-1/chats/${chatId}`, { headers: sk })).body;
        expect(chat.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'human_agent']);
        expect(chat.isHumanHandled).toBe(false);
      } finally {
        live.close();
      }
    });
  },
);
