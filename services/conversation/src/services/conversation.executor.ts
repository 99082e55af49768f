import { setImmediate as nextTurn } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type StoredEvent } from '@palaver/contracts';
import { type Clock, type Config, logger, Ports, VersionConflictError } from '@palaver/platform';
import type { ConversationCommand } from '../domain/conversation.commands';
import { decide } from '../domain/conversation.decider';
import type { ConversationState } from '../domain/conversation.state';
import type { StoredConversationEvent } from '../domain/conversation.stream';
import { OutboxRelay } from '../outbox/outbox.relay';
import { ReadModelBarrier } from '../projections/read-model.barrier';
import { ReadModelProjector } from '../projections/read-model.projector';
import { ConversationRepository } from '../repositories/conversation.repository';
import { PerKeyQueue } from './per-key-queue';

/** Attempts against other processes appending to the same stream, with jittered backoff between. */
const MAX_ATTEMPTS = 10;
const BACKOFF_BASE_MS = 5;
const BACKOFF_CAP_MS = 200;

/** "Full jitter": a random wait up to an exponentially growing cap, so racers spread out. */
const backoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt)));

export interface Executed {
  /** The conversation after the command. */
  state: ConversationState;
  /** What the command appended (empty when it changed nothing). */
  appended: StoredConversationEvent[];
  /** The same events as stored, their personal fields sealed: what the durable stream gets. */
  sealed: readonly StoredEvent[];
  /** The whole stream after the command (shared: never mutated). */
  events: readonly StoredConversationEvent[];
}

/**
 * Runs one command against its conversation: load, decide, append at the loaded version, and
 * on a concurrent append decide again on the fresh stream. Commands on one conversation run one
 * at a time in this process; a conflict with another process is retried after a jittered
 * backoff, and only a stream that keeps moving through every attempt gives 409 CONFLICT.
 *
 * Before it returns, still in the conversation's turn, the command brings its own conversation's
 * read models up to date (in few writes), so a read right after sees it, and hands its own events
 * to the outbox, which publishes them behind the answer; the relay's sweep and start-up drain
 * project and publish whatever a failure or a crash left pending. So a command runs no other
 * conversation's projection or publication, and concurrent commands share their fsyncs (group commit).
 */
@Injectable()
export class ConversationExecutor {
  private readonly queue = new PerKeyQueue();

  constructor(
    @Inject(ConversationRepository) private readonly repository: ConversationRepository,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(ReadModelProjector) private readonly projector: ReadModelProjector,
    @Inject(ReadModelBarrier) private readonly barrier: ReadModelBarrier,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Config,
  ) {}

  /**
   * `onAppended` runs once the command's events are durable, before its read models are written:
   * work that follows from the events and needs no read model (the reply job) starts without
   * waiting for them. It must not wait for this conversation's turn (it runs inside it).
   */
  async execute(command: ConversationCommand, onAppended?: (executed: Executed) => void): Promise<Executed> {
    return this.queue.run(command.conversationId, async () => {
      const executed = await this.decideAndAppend(command);
      const { state } = executed;
      if (executed.appended.length > 0 && state.status !== 'none') {
        const scope = { projectId: state.projectId, visitorId: state.visitorId, conversationId: command.conversationId };
        await this.barrier.hold(scope, () => this.project(executed, onAppended));
      }
      return executed;
    });
  }

  /**
   * The command answers once its read models are written; its events are published meanwhile, in
   * call order (the stream keeps it), and marked published once both are done, so that whatever
   * failed is redone by the relay.
   */
  private async project(executed: Executed, onAppended?: (executed: Executed) => void): Promise<boolean> {
    if (onAppended) {
      onAppended(executed);
      // Its work (a reply's first token, which a visitor waits for) goes first; nobody waits
      // for the read models before the answer, which then comes a turn of the event loop later,
      // and reads of this conversation wait at the barrier meanwhile.
      await nextTurn();
    }
    const projected = this.projectQuietly(executed);
    this.relay.publishInBackground(executed.sealed, projected);
    return projected;
  }

  /** The events are safe in the store: a failed projection is logged, and the relay's sweep redoes it. */
  private async projectQuietly(executed: Executed): Promise<boolean> {
    try {
      await this.projector.catchUp(executed.events);
      return true;
    } catch (err) {
      logger.error({ err }, 'conversation read models: projection failed, the relay will retry');
      return false;
    }
  }

  private async decideAndAppend(command: ConversationCommand): Promise<Executed> {
    for (let attempt = 1; ; attempt++) {
      const loaded = await this.repository.load(command.conversationId);
      const now = this.clock.now().toISOString();
      const decided = decide(command, loaded.state, { now, replyTimeoutMs: this.config.REPLY_TIMEOUT_MS });
      if (decided.length === 0) return { state: loaded.state, appended: [], sealed: [], events: loaded.events };
      try {
        const { appended, sealed, after } = await this.repository.append(command.conversationId, loaded, decided, {
          projectId: command.projectId,
          occurredAt: now,
        });
        return { state: after.state, appended, sealed, events: after.events };
      } catch (err) {
        if (!(err instanceof VersionConflictError)) throw err;
        if (attempt >= MAX_ATTEMPTS) {
          throw new AppError('CONFLICT', 'The conversation is changing too quickly; try again', {
            resource: 'conversation',
            conflictingField: 'version',
            conversationId: command.conversationId,
          });
        }
        await backoff(attempt);
      }
    }
  }
}
