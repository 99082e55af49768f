import { randomUUID } from 'node:crypto';
import { ManualClock } from '@palaver/platform';
import { describe, expect, it, vi } from 'vitest';
import { filesContaining } from './support/data-dir-grep';
import { http, newVisitor, useE2eApp } from './support/e2e-app';

const DAY_MS = 86_400_000;

/**
 * A project's retentionDays (docs/privacy.md#retention): the daily job erases the conversations
 * idle longer, the way an erasure does. Time is the Clock port's: the test moves it; the job is
 * checked for every RETENTION_CHECK_INTERVAL_MS and runs once per (clock) day.
 */
describe('retention', () => {
  const clock = new ManualClock(new Date('2026-05-01T09:00:00.000Z'));
  const e2e = useE2eApp({ RETENTION_CHECK_INTERVAL_MS: '100' }, { clock });

  const chat = async (publishableKey: string, text: string) => {
    const { token, visitor } = await newVisitor(e2e.url, publishableKey);
    const conversation = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body;
    expect((await http(`${e2e.url}/v2/conversations/${conversation.id}/messages`, { body: { content: text }, token })).status).toBe(200);
    return { visitorId: visitor.id as string, conversationId: conversation.id as string };
  };

  it('erases the conversations idle past retentionDays, once a day, and records it; other projects keep theirs', async () => {
    const kept = await e2e.admin.createProject({ name: 'keeps everything' });
    const keys = await e2e.admin.createProject({ name: 'keeps 30 days' });
    const p = keys.project.id;
    const patched = await e2e.admin.call('PATCH', `/projects/${p}`, { retentionDays: 30 });
    expect(patched.retentionDays).toBe(30);
    expect((await e2e.admin.call('GET', `/projects/${kept.project.id}`)).retentionDays).toBeNull();
    expect(
      (await http(`${e2e.url}/admin/v1/projects/${p}`, { method: 'PATCH', body: { retentionDays: 0 }, token: 'test-admin-token' })).status,
    ).toBe(422);

    const marker = `MARKER-${randomUUID()}`;
    const old = await chat(keys.publishableKey, `old ${marker}`);
    const elsewhere = await chat(kept.publishableKey, `kept ${marker}`);
    clock.advance(20 * DAY_MS);
    const recent = await chat(keys.publishableKey, 'recent');
    clock.advance(11 * DAY_MS); // the old conversation is 31 days idle, the recent one 11

    // The run's last step is its record.
    await vi.waitFor(async () => expect((await e2e.admin.call('GET', `/projects/${p}/erasures`)).data).toHaveLength(1), {
      timeout: 10_000,
      interval: 50,
    });
    expect(
      (await http(`${e2e.url}/admin/v1/projects/${p}/conversations/${old.conversationId}`, { token: 'test-admin-token' })).status,
    ).toBe(404);
    const left = await e2e.admin.call('GET', `/projects/${p}/conversations`);
    expect(left.data.map((c: { id: string }) => c.id)).toEqual([recent.conversationId]);
    expect((await e2e.admin.call('GET', `/projects/${kept.project.id}/conversations/${elsewhere.conversationId}`)).id).toBe(
      elsewhere.conversationId,
    );
    const records = (await e2e.admin.call('GET', `/projects/${p}/erasures`)).data;
    expect(records).toEqual([
      expect.objectContaining({
        visitorId: old.visitorId,
        reason: 'retention',
        erasedBy: { kind: 'retention', id: null },
        conversations: 1,
        profileErased: false,
      }),
    ]);
    // Audited as a visitor erasure by the system's retention job, with the count only.
    const audit = (await e2e.admin.call('GET', `/projects/${p}/audit?action=visitor.erased`)).data;
    expect(audit).toEqual([
      expect.objectContaining({
        actor: { type: 'system', id: 'retention', email: null },
        target: { type: 'visitor', id: old.visitorId },
        changes: { conversations: 1, profileErased: false, by: 'retention' },
      }),
    ]);
    expect(JSON.stringify(audit)).not.toContain(marker);
    // The visitor's profile stays (only their idle conversation went).
    const exported = await e2e.admin.call('GET', `/projects/${p}/visitors/${old.visitorId}/export`);
    expect(exported).toMatchObject({ visitor: { id: old.visitorId }, conversations: [] });
    // Only the other project's copy of the marker remains on disk (in its read models).
    const withMarker = await filesContaining(e2e.dataDir, `old ${marker}`);
    expect(withMarker).toEqual([]);
    expect(await filesContaining(e2e.dataDir, `kept ${marker}`)).not.toEqual([]);
  });
});
