import { IdentityMessages, PrivacyMessages } from '@palaver/contracts';
import { type AuditOutbox, ManualClock, ServiceClient } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErasureRecordRepository } from '../repositories/erasure-record.repository';
import { RetentionRunRepository } from '../repositories/retention-run.repository';
import { OTHER_PROJECT, POST_HELLO, PROJECT, START } from '../testing/conversation.fixtures';
import { wire } from '../testing/conversation.wiring';
import { ConversationErasureService } from './conversation-erasure.service';
import { RetentionService } from './retention.service';

let infra: TestInfrastructure;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(new Date('2026-05-01T09:00:00.000Z'));
  infra = await createTestInfrastructure({ clock });
});
afterEach(async () => {
  await infra.cleanup();
});

const OTHER_CONVERSATION = '00000000-0000-4000-8000-0000000000c9';

/**
 * A deleted project whose erasure stopped before it began (a crash right after the deletion): the
 * retention run finds it in identity's list and erases what is left, and asks search and
 * analytics to erase theirs. Identity, search and analytics answer through a requester double.
 */
describe('the retention run and deleted projects', () => {
  it("erases a deleted project's conversations, leaves other projects', and asks search and analytics for the rest", async () => {
    const service = wire(infra);
    await service.executor.execute(START);
    await service.executor.execute(POST_HELLO);
    await service.executor.execute({ ...START, conversationId: OTHER_CONVERSATION, projectId: OTHER_PROJECT });
    const asked: Array<{ subject: string; payload: unknown }> = [];
    const answers: Record<string, unknown> = {
      [IdentityMessages.listProjects.subject]: { data: [] },
      [IdentityMessages.listDeletedProjects.subject]: { data: [{ id: PROJECT, deletedAt: clock.now().toISOString() }] },
      [PrivacyMessages.eraseProjectKnowledge.subject]: { ok: true },
      [PrivacyMessages.eraseProjectAnalytics.subject]: { ok: true },
    };
    const services = new ServiceClient({
      request: async (subject: string, payload: unknown) => {
        asked.push({ subject, payload });
        return { ok: true, data: answers[subject] };
      },
      close: () => undefined,
    });
    const erasure = new ConversationErasureService(
      service.executor,
      service.relay,
      service.cipher,
      service.repository,
      service.conversations,
      new ErasureRecordRepository(infra.documents),
      infra.documents,
      clock,
    );
    // No project has a retention period here: no audit entry is written.
    const audit = {} as AuditOutbox;
    const retention = new RetentionService(
      erasure,
      service.conversations,
      new RetentionRunRepository(infra.documents),
      services,
      clock,
      audit,
    );

    expect(await service.conversations.idsOfProject(PROJECT)).toHaveLength(1);
    expect(await service.readModel.messages.count({ projectId: PROJECT })).toBeGreaterThan(0);
    expect(await retention.eraseExpired(clock.now())).toBe(1);
    expect(await service.conversations.idsOfProject(PROJECT)).toEqual([]);
    expect(await service.readModel.messages.count({ projectId: PROJECT })).toBe(0);
    expect(await service.conversations.idsOfProject(OTHER_PROJECT)).toEqual([OTHER_CONVERSATION]);
    const erasures = asked.filter((a) => a.subject.endsWith('erase-project.v1'));
    expect(erasures).toEqual([
      { subject: PrivacyMessages.eraseProjectKnowledge.subject, payload: { projectId: PROJECT } },
      { subject: PrivacyMessages.eraseProjectAnalytics.subject, payload: { projectId: PROJECT } },
    ]);

    // The next run finds nothing left.
    expect(await retention.eraseExpired(clock.now())).toBe(0);
  });
});
