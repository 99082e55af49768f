import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { REPLY_STOPS_CHANNEL, StoppedReply } from '@palaver/contracts';
import { Ports, type PubSub } from '@palaver/platform';

/** A stop that comes before its reply's job runs is remembered this long: the job is then skipped. */
const EARLY_STOP_MEMORY_MS = 5 * 60_000;

/** Why a stopped reply's model call was aborted. */
export class ReplyStopped extends Error {
  constructor() {
    super('the visitor stopped the reply');
  }
}

/**
 * The stops the gateways announce (REPLY_STOPS_CHANNEL): each one aborts the signal of its reply
 * if this worker generates it, which cancels the model call. The stop is already stored.
 */
@Injectable()
export class ReplyStops implements OnModuleInit, OnModuleDestroy {
  private readonly running = new Map<string, AbortController>();
  private readonly stoppedEarly = new Map<string, number>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(@Inject(Ports.pubsub) private readonly pubsub: PubSub) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(REPLY_STOPS_CHANNEL, (message) => this.stopped(message));
  }

  async onModuleDestroy(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The signal that aborts when `replyId` is stopped (already aborted if it was), and the release once it is over. */
  track(replyId: string): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    if (this.stoppedEarly.delete(replyId)) controller.abort(new ReplyStopped());
    else this.running.set(replyId, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.running.get(replyId) === controller) this.running.delete(replyId);
      },
    };
  }

  private stopped(message: unknown): void {
    const stop = StoppedReply.safeParse(message);
    if (!stop.success) return;
    const controller = this.running.get(stop.data.replyId);
    if (controller) {
      controller.abort(new ReplyStopped());
      return;
    }
    const now = Date.now();
    for (const [id, at] of this.stoppedEarly) if (now - at > EARLY_STOP_MEMORY_MS) this.stoppedEarly.delete(id);
    this.stoppedEarly.set(stop.data.replyId, now);
  }
}
