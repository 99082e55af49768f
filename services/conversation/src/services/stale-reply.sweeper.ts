import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { INFERENCE_QUEUE, replyJobId } from '@palaver/contracts';
import { type Clock, type JobQueue, logger, Ports } from '@palaver/platform';
import { OutboxRelay } from '../outbox/outbox.relay';
import { MessageReadRepository } from '../repositories/message-read.repository';
import type { MessageDoc } from '../repositories/read-model';
import { ConversationExecutor } from './conversation.executor';

/** A reply younger than this may be between its `AssistantReplyStarted` and its enqueue. */
const GRACE_MS = 3_000;
const SWEEP_INTERVAL_MS = 5_000;
export const INTERRUPTED_REPLY_ERROR = 'the reply was interrupted (a service stopped); send your message again';

/**
 * Fails every reply left `streaming` whose generate-reply job no longer exists, so that no
 * conversation stays blocked (409) until `REPLY_TIMEOUT_MS`. It asks the job-queue port, so it
 * serves both cases: after a restart of the embedded app (the in-process queue starts empty: every
 * reply that was in flight is failed at once) and in a cluster, where a job whose worker died is
 * retried by BullMQ while it exists and swept here once BullMQ gave up on it. Runs at start (after
 * the outbox relay caught up) and then every few seconds.
 */
@Injectable()
export class StaleReplySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    @Inject(MessageReadRepository) private readonly messages: MessageReadRepository,
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(ConversationExecutor) private readonly executor: ConversationExecutor,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.flushQuietly();
    await this.sweepQuietly();
    this.timer = setInterval(() => void this.sweepQuietly(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Fails the stale replies; answers how many. One sweep at a time. */
  sweep(): Promise<number> {
    this.running ??= this.failStale().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const failed = await this.sweep();
      if (failed > 0) logger.warn({ failed }, 'failed replies whose job no longer exists');
    } catch (err) {
      logger.error({ err }, 'stale reply sweep failed, will retry');
    }
  }

  private async failStale(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - GRACE_MS).toISOString();
    const streaming = await this.messages.streamingSince(cutoff);
    let failed = 0;
    for (const message of streaming) {
      if (await this.jobExists(message)) continue;
      const executed = await this.executor.execute({
        type: 'FailReply',
        conversationId: message.conversationId,
        projectId: message.projectId,
        messageId: message._id,
        error: INTERRUPTED_REPLY_ERROR,
        partialText: message.parts.map((part) => part.text).join(''),
      });
      failed += executed.appended.length > 0 ? 1 : 0;
    }
    return failed;
  }

  /** The job ids `ConversationCommandService` enqueues a reply under: first reply, or a regenerated one. */
  private async jobExists(message: MessageDoc): Promise<boolean> {
    for (const jobId of [replyJobId(message._id), replyJobId(message._id, message.version)]) {
      if (await this.jobs.exists(INFERENCE_QUEUE, jobId)) return true;
    }
    return false;
  }
}
