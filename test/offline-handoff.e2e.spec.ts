import { ManualClock } from '@palaver/platform';
import { describe, expect, it, vi } from 'vitest';
import { http, newConversation, newVisitor, startE2eApp, useE2eApp } from './support/e2e-app';
import { APP_MODES } from './support/nats-and-redis';
import { SseClient } from './support/sse';

const HANDOFF_NOTICE = 'I have asked a member of our team to join. An agent will answer here shortly.';
const OFFLINE = 'We are away right now. Leave your email and we will write back.';

for (const mode of APP_MODES) {
  describe.skipIf(!mode.available)(`nobody online (${mode.name}${mode.available ? '' : ': NATS or Redis unreachable, skipped'})`, () => {
    const e2e = useE2eApp(mode.overrides);

    const setUp = async (settings: object) => {
      const created = await e2e.admin.createProject();
      await e2e.admin.call('PATCH', `/projects/${created.project.id}`, settings);
      const agent = await e2e.admin.call('POST', `/projects/${created.project.id}/agents`, { name: 'Ada' });
      const agentCall = (method: string, path: string, body?: unknown) =>
        http(`${e2e.url}/agent/v1${path}`, { method, body, token: agent.token });
      const team = async () =>
        (await http(`${e2e.url}/v2/projects/current?apiKey=${encodeURIComponent(created.publishableKey)}`)).body.humanAgents;
      const askForPerson = async () => {
        const { token, conversationId } = await newConversation(e2e.url, created.publishableKey);
        const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
          body: { content: 'Can I talk to a human?' },
          token,
        });
        expect(sent.status).toBe(200);
        return { token, conversationId, reply: sent.body.steps[0].content[0].text as string };
      };
      return { ...created, agentCall, team, askForPerson };
    };

    it('queues a visitor asking for a person while nobody is online, tells them at once, and takes their email everywhere it is read', async () => {
      const { project, agentCall, team, askForPerson } = await setUp({ handoff: { enabled: true, offlineMessage: OFFLINE } });
      expect(await team()).toEqual({ enabled: true, available: false });

      const { token, conversationId, reply } = await askForPerson();
      expect(reply).toBe(OFFLINE);
      const conversation = (await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body;
      expect(conversation.isHumanHandled).toBe(true);
      expect(conversation.messages.at(-1)).toMatchObject({ role: 'assistant', parts: [{ text: OFFLINE }] });
      expect((await agentCall('GET', '/queue')).body.data.map((c: { id: string }) => c.id)).toContain(conversationId);

      const bad = await http(`${e2e.url}/v2/conversations/${conversationId}/contact`, { body: { email: 'not an email' }, token });
      expect(bad.status).toBe(422);
      const left = await http(`${e2e.url}/v2/conversations/${conversationId}/contact`, {
        body: { email: ' ana@example.com ', name: 'Ana' },
        token,
      });
      expect(left.status).toBe(200);
      expect(left.body).toMatchObject({ email: 'ana@example.com', name: 'Ana' });
      const contact = { email: 'ana@example.com', name: 'Ana', capturedAt: left.body.capturedAt };

      expect((await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body.contact).toEqual(contact);
      expect((await http(`${e2e.url}/v2/identity/me`, { token })).body.contact).toEqual(contact);
      const queued = (await agentCall('GET', '/queue')).body.data.find((c: { id: string }) => c.id === conversationId);
      expect(queued.contact).toEqual(contact);
      expect((await agentCall('GET', `/conversations/${conversationId}`)).body.contact).toEqual(contact);
      expect((await e2e.admin.call('GET', `/projects/${project.id}/conversations/${conversationId}`)).contact).toEqual(contact);
      const feed = await vi.waitFor(
        async () => {
          const events = (await e2e.admin.call('GET', `/projects/${project.id}/events?type=contact`)).data;
          expect(events).toHaveLength(1);
          return events;
        },
        { timeout: 10_000, interval: 100 },
      );
      // The feed says that a contact was left, not the address (personal, sealed in the event).
      expect(feed[0]).toMatchObject({ type: 'contact.captured', conversationId, data: {} });
      expect(JSON.stringify(feed[0])).not.toContain('ana@example.com');

      // Another visitor's conversation is not this visitor's to leave a contact on.
      const other = await newVisitor(e2e.url, (await e2e.admin.createProject()).publishableKey);
      expect(
        (await http(`${e2e.url}/v2/conversations/${conversationId}/contact`, { body: { email: 'x@example.com' }, token: other.token }))
          .status,
      ).toBe(404);
    });

    it('answers with the usual notice while an agent is online, and the offline one once it is away', async () => {
      const { agentCall, team, askForPerson } = await setUp({ handoff: { enabled: true } });
      const online = await agentCall('PUT', '/presence', { status: 'online' });
      expect(online.status).toBe(200);
      expect(online.body).toEqual({ status: 'online', expiresInSeconds: 120 });
      expect(await team()).toEqual({ enabled: true, available: true });
      expect((await askForPerson()).reply).toBe(HANDOFF_NOTICE);

      expect((await agentCall('PUT', '/presence', { status: 'away' })).body).toEqual({ status: 'away', expiresInSeconds: null });
      expect(await team()).toEqual({ enabled: true, available: false });
      expect((await askForPerson()).reply).toMatch(/not available right now/);
      expect((await agentCall('PUT', '/presence', { status: 'busy' })).status).toBe(422);
    });

    it('is closed outside the opening hours even with an agent online, and checks the hours it is given', async () => {
      const { project, agentCall, team } = await setUp({
        handoff: { enabled: true },
        availability: { timezone: 'Pacific/Kiritimati', weeklyHours: {}, holidays: [] },
      });
      await agentCall('PUT', '/presence', { status: 'online' });
      expect(await team()).toEqual({ enabled: true, available: false });
      const always = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]));
      await e2e.admin.call('PATCH', `/projects/${project.id}`, { availability: { timezone: 'Europe/Paris', weeklyHours: always } });
      expect(await team()).toEqual({ enabled: true, available: true });
      const stored = await e2e.admin.call('GET', `/projects/${project.id}`);
      expect(stored.availability).toEqual({ timezone: 'Europe/Paris', weeklyHours: always, holidays: [] });

      for (const availability of [
        { timezone: 'Europe/Atlantis', weeklyHours: {} },
        { timezone: 'UTC', weeklyHours: { mon: [['9:00', '17:00']] } },
        { timezone: 'UTC', weeklyHours: {}, holidays: ['2026-13-01'] },
      ]) {
        const refused = await http(`${e2e.url}/admin/v1/projects/${project.id}`, {
          method: 'PATCH',
          body: { availability },
          token: e2e.app.adminToken,
        });
        expect(refused.status, JSON.stringify(availability)).toBe(422);
      }
    });
  });
}

describe('agent presence expiry', () => {
  it('makes an agent away 2 minutes after its last word, unless its live feed is open', async () => {
    const clock = new ManualClock(new Date());
    const e2e = await startE2eApp({}, { clock });
    try {
      const { project, publishableKey } = await e2e.admin.createProject();
      await e2e.admin.call('PATCH', `/projects/${project.id}`, { handoff: { enabled: true } });
      const agent = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
      const team = async () => (await http(`${e2e.url}/v2/projects/current?apiKey=${encodeURIComponent(publishableKey)}`)).body.humanAgents;
      await http(`${e2e.url}/agent/v1/presence`, { method: 'PUT', body: { status: 'online' }, token: agent.token });
      clock.advance(119_000);
      expect((await team()).available).toBe(true);
      clock.advance(2_000);
      expect((await team()).available).toBe(false);

      // Online again, then the inbox's live feed opens: it renews the presence while it is open.
      await http(`${e2e.url}/agent/v1/presence`, { method: 'PUT', body: { status: 'online' }, token: agent.token });
      clock.advance(100_000);
      const feed = await SseClient.open(`${e2e.url}/agent/v1/events`, { authorization: `Bearer ${agent.token}` });
      try {
        clock.advance(100_000);
        expect((await team()).available).toBe(true);
      } finally {
        feed.close();
      }
      clock.advance(121_000);
      expect((await team()).available).toBe(false);
    } finally {
      await e2e.stop();
    }
  });
});
