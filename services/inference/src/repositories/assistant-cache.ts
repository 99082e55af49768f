import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  type AssistantRecord,
  IDENTITY_CHANGES_CHANNEL,
  IdentityChange,
  IdentityMessages,
  type QnaOverrideSettings,
} from '@palaver/contracts';
import { logger, Ports, type PubSub, type ServiceClient } from '@palaver/platform';
import { LRUCache } from 'lru-cache';
import { ASSISTANT_CACHE } from '../domain/inference.settings';

/**
 * Identity's assistants (and each project's Q&A override setting) as the replies need them, so a reply costs no identity call while the
 * assistant is unchanged. Identity announces each change that makes one stale
 * (`IDENTITY_CHANGES_CHANNEL`: an assistant updated, or its project changed, which may name another
 * default); every inference instance then drops that project's assistants. An answer fetched
 * while a change arrives is returned but not kept, and entries expire after a while anyway, which
 * bounds staleness should an announcement be lost (a pub/sub reconnect).
 */
@Injectable()
export class AssistantCache implements OnModuleInit, OnModuleDestroy {
  /** Keyed by project, then by assistant id ('' for the project's default). */
  private readonly byProject = new LRUCache<string, Map<string, AssistantRecord>>({
    max: ASSISTANT_CACHE.projects,
    ttl: ASSISTANT_CACHE.ttlMs,
  });
  /** The project's Q&A override setting, by project. */
  private readonly qnaOverrides = new LRUCache<string, QnaOverrideSettings>({ max: ASSISTANT_CACHE.projects, ttl: ASSISTANT_CACHE.ttlMs });
  private generation = 0;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(Ports.pubsub) private readonly pubsub: PubSub,
  ) {}

  /** Subscribed before the worker takes its first job (bootstrap comes after every module's init). */
  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(IDENTITY_CHANGES_CHANNEL, (message) => {
      const change = IdentityChange.safeParse(message);
      if (!change.success) logger.warn({ message }, 'ignored a malformed identity change');
      else if (change.data.kind === 'assistant-changed' || change.data.kind === 'project-changed') this.forget(change.data.projectId);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The project's assistant with this id, or its default one when the id is null. */
  async get(projectId: string, assistantId: string | null): Promise<AssistantRecord> {
    const key = assistantId ?? '';
    const hit = this.byProject.get(projectId)?.get(key);
    if (hit) return hit;
    const generation = this.generation;
    const assistant = await this.services.send(IdentityMessages.getAssistant, { projectId, assistantId });
    if (generation === this.generation) {
      let assistants = this.byProject.get(projectId);
      if (!assistants) {
        assistants = new Map();
        this.byProject.set(projectId, assistants);
      }
      if (assistants.size < ASSISTANT_CACHE.perProject) assistants.set(key, assistant);
    }
    return assistant;
  }

  /** The project's Q&A override setting (kept and dropped as the assistants are). */
  async qnaOverride(projectId: string): Promise<QnaOverrideSettings> {
    const hit = this.qnaOverrides.get(projectId);
    if (hit) return hit;
    const generation = this.generation;
    const { qnaOverride } = await this.services.send(IdentityMessages.getProject, { projectId });
    if (generation === this.generation) this.qnaOverrides.set(projectId, qnaOverride);
    return qnaOverride;
  }

  private forget(projectId: string): void {
    this.generation += 1;
    this.byProject.delete(projectId);
    this.qnaOverrides.delete(projectId);
  }
}
