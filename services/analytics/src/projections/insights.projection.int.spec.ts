import { randomBytes, randomUUID } from 'node:crypto';
import type { StoredEvent } from '@palaver/contracts';
import { sealField } from '@palaver/platform';
import { createTestInfrastructure } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStatsRepository } from '../repositories/conversation-stats.repository';
import { UnansweredRepository } from '../repositories/unanswered.repository';
import { InsightsProjection } from './insights.projection';

const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 0, cachedInputTokens: 0 };
const MARKER = `MARKER-${randomUUID()}`;
/** A personal field as the stream carries it: analytics must not need it. */
const SEALED = sealField(randomBytes(32), MARKER, 'test');

/** The insights projection on the document store, fed events whose personal fields are sealed. */
describe('insights projection', () => {
  let infra: Awaited<ReturnType<typeof createTestInfrastructure>>;
  let unanswered: UnansweredRepository;
  let projection: InsightsProjection;

  beforeAll(async () => {
    infra = await createTestInfrastructure();
    unanswered = new UnansweredRepository(infra.documents);
    projection = new InsightsProjection(new ConversationStatsRepository(infra.documents), unanswered, infra.documents);
  });
  afterAll(() => infra?.cleanup());

  const conversation = (projectId: string) => {
    const conversationId = randomUUID();
    let version = 0;
    const event = (type: StoredEvent['type'], data: Record<string, unknown>): StoredEvent => ({
      eventId: randomUUID(),
      streamId: `conversation-${conversationId}`,
      version: ++version,
      type,
      projectId,
      occurredAt: '2026-04-10T12:00:00.000Z',
      data,
    });
    return { conversationId, event };
  };

  it('records a declined question by id only, and forgets it and its emptied group on erasure', async () => {
    const projectId = randomUUID();
    const { conversationId, event } = conversation(projectId);
    const [question, reply] = [randomUUID(), randomUUID()];
    await projection.applyBatch([
      event('ConversationStarted', { projectId, visitorId: randomUUID(), pageUrl: SEALED }),
      event('UserMessagePosted', { messageId: question, content: SEALED, pageContext: SEALED }),
      event('AssistantReplyStarted', { messageId: reply, assistantId: null }),
      event('AssistantReplyCompleted', { messageId: reply, text: SEALED, finishReason: 'stop', usage: USAGE, declined: true }),
    ]);
    const [recorded] = await unanswered.ungrouped(projectId, 10);
    expect(recorded).toMatchObject({ conversationId, messageId: question, reasons: ['declined'] });
    expect(JSON.stringify(recorded)).not.toContain(SEALED.slice(0, 12));

    const groupId = randomUUID();
    await unanswered.saveGroup(projectId, { id: groupId, centroid: [1, 0], size: 1 }, '2026-04-10T12:00:00.000Z', true);
    await unanswered.assign(projectId, question, groupId);
    await projection.applyBatch([event('ConversationErased', { reason: 'request' })]);

    expect(await unanswered.questionsOf(projectId, groupId)).toEqual([]);
    expect(await unanswered.group(projectId, groupId)).toBeNull();
  });
});
