import { type ConversationStreamEvent, PalaverApiError, type PalaverClient } from '@palaver/client';

export interface LiveEventsHandlers {
  event: (event: ConversationStreamEvent) => void;
  /** Without live events: read the conversation again. */
  poll: () => void;
  /** The gateway has no live events: follow again (it will poll). */
  unavailable: () => void;
}

/**
 * Follows one conversation's live events (agent messages, handoff, close, typing), reconnecting with the
 * last event id after a drop; an older gateway without them is polled instead.
 */
export class LiveEvents {
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private live: AbortController | null = null;
  private liveUnavailable = false;

  constructor(
    private readonly client: PalaverClient,
    private readonly handlers: LiveEventsHandlers,
    private readonly pollMs = 3000,
  ) {}

  /** Whether a conversation is followed (live or polled) already. */
  get following(): boolean {
    return !!this.live || !!this.pollTimer;
  }

  /** Whether the gateway has no live events, so conversations are polled. */
  get polled(): boolean {
    return this.liveUnavailable;
  }

  follow(conversationId: string): void {
    if (this.following) return;
    if (this.liveUnavailable) {
      this.startPolling();
      return;
    }
    const controller = new AbortController();
    this.live = controller;
    const { client } = this;
    void (async () => {
      let after: string | null = null;
      for (let failures = 0; !controller.signal.aborted; failures += 1) {
        try {
          const events = await client.conversationEvents(conversationId, { after, signal: controller.signal });
          failures = 0;
          for await (const event of events as unknown as AsyncIterable<ConversationStreamEvent>) {
            // A typing signal has no id: it is never replayed, so it does not move the resume point.
            if (event.type !== 'typing') after = event.id;
            this.handlers.event(event);
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          if (error instanceof PalaverApiError && error.status < 500 && error.status !== 408 && error.status !== 429) {
            if (error.code === 'NOT_FOUND') {
              // no such route: a gateway without live events
              this.liveUnavailable = true;
              if (this.live === controller) this.live = null;
              this.handlers.unavailable();
            }
            return;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** failures)));
      }
    })();
  }

  stop(): void {
    this.live?.abort();
    this.live = null;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.handlers.poll(), this.pollMs);
  }
}
