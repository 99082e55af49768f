import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ErasureActor, ErasureReason, ErasureRecord } from '@palaver/contracts';
import { type Clock, type DocumentStore, Ports } from '@palaver/platform';
import { OutboxRelay } from '../outbox/outbox.relay';
import { AGENT_FEED } from '../repositories/agent-feed.repository';
import { ConversationRepository } from '../repositories/conversation.repository';
import { ConversationCipher } from '../repositories/conversation-cipher';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { ErasureRecordRepository } from '../repositories/erasure-record.repository';
import { CONVERSATIONS, MESSAGES } from '../repositories/read-model';
import { ConversationExecutor } from './conversation.executor';

/**
 * Erasure of conversations (docs/privacy.md). Each conversation gets `ConversationErased` (it
 * refuses every command after, and its projection deletes its read models and agent feed
 * entries), then its data key is deleted (crypto-shredding: its events, in the log and on the
 * stream, keep only ciphertext nobody can open) and its folded copy is dropped from memory. The
 * embedded files are compacted once at the end, so that no deleted document's text stays on disk.
 */
@Injectable()
export class ConversationErasureService {
  constructor(
    @Inject(ConversationExecutor) private readonly executor: ConversationExecutor,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(ConversationCipher) private readonly cipher: ConversationCipher,
    @Inject(ConversationRepository) private readonly repository: ConversationRepository,
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(ErasureRecordRepository) private readonly records: ErasureRecordRepository,
    @Inject(Ports.documents) private readonly documents: DocumentStore,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  /** Erases every conversation of the visitor and records it (also when there were none). */
  async eraseVisitor(request: {
    projectId: string;
    visitorId: string;
    erasedBy: ErasureActor;
    reason: ErasureReason;
    profileErased: boolean;
  }): Promise<ErasureRecord> {
    // Whatever is durable but not yet projected (a crash, a failed projection) is listed too.
    await this.relay.flush();
    const ids = await this.conversations.idsOfVisitor(request.projectId, request.visitorId);
    await this.erase(request.projectId, ids, request.reason);
    await this.compact();
    return this.record({ ...request, conversations: ids.length });
  }

  /**
   * Erases every conversation of a deleted project, then compacts; answers how many. Idempotent:
   * an erased conversation is no longer listed, so a run after a crash erases what is left.
   */
  async eraseProject(projectId: string): Promise<number> {
    await this.relay.flush();
    const ids = await this.conversations.idsOfProject(projectId);
    if (ids.length === 0) return 0; // the retention run's check of a project erased already rewrites no file
    await this.erase(projectId, ids, 'request');
    await this.compact();
    return ids.length;
  }

  /** Erases the conversations (of one project), without compacting: the caller compacts once after a batch. */
  async erase(projectId: string, conversationIds: readonly string[], reason: ErasureReason): Promise<void> {
    for (const conversationId of conversationIds) {
      await this.executor.execute({ type: 'EraseConversation', projectId, conversationId, reason });
      await this.cipher.erase([conversationId]);
      this.repository.forget(conversationId);
    }
  }

  /** Rewrites the embedded files without what the erasures deleted. */
  compact(): Promise<void> {
    return this.documents.compact([CONVERSATIONS, MESSAGES, AGENT_FEED]);
  }

  /** Records an erasure; one that erased nothing (an unknown visitor) is answered but not kept. */
  async record(fields: Omit<ErasureRecord, 'object' | 'id' | 'erasedAt'>): Promise<ErasureRecord> {
    const record: ErasureRecord = { object: 'erasure', id: randomUUID(), erasedAt: this.clock.now().toISOString(), ...fields };
    if (record.conversations > 0 || record.profileErased) await this.records.insert(record);
    return record;
  }

  async list(projectId: string, offset: number, limit: number) {
    const { data, total } = await this.records.page(projectId, offset, limit);
    return { object: 'list' as const, total, limit, offset, data };
  }
}
