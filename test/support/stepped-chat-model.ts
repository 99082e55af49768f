import type { ChatModel, ChatRequest, ModelChunk } from '@palaver/platform';

interface Running {
  deltas: string[];
  ended: boolean;
  wake: (() => void) | null;
}

/**
 * A chat model the test drives piece by piece: each reply streams the deltas the test `send`s,
 * until `end`. It honours the request's abort signal, and counts the replies cancelled by it.
 */
export class SteppedChatModel implements ChatModel {
  readonly name = 'stepped';
  private current: Running | null = null;
  private onStart: Array<() => void> = [];
  cancelled = 0;

  /** Resolves when a reply is running. */
  started(): Promise<void> {
    if (this.current) return Promise.resolve();
    return new Promise((resolve) => this.onStart.push(resolve));
  }

  send(delta: string): void {
    const running = this.running();
    running.deltas.push(delta);
    running.wake?.();
  }

  end(): void {
    const running = this.running();
    running.ended = true;
    running.wake?.();
  }

  async *stream(request: ChatRequest): AsyncIterable<ModelChunk> {
    const running: Running = { deltas: [], ended: false, wake: null };
    this.current = running;
    for (const notify of this.onStart.splice(0)) notify();
    const onAbort = () => running.wake?.();
    request.signal?.addEventListener('abort', onAbort);
    try {
      while (true) {
        if (request.signal?.aborted) {
          this.cancelled += 1;
          throw request.signal.reason;
        }
        const delta = running.deltas.shift();
        if (delta !== undefined) {
          yield { type: 'delta', delta };
          continue;
        }
        if (running.ended) break;
        await new Promise<void>((resolve) => (running.wake = resolve));
        running.wake = null;
      }
      const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 0, cachedInputTokens: 0 };
      yield { type: 'finish', finishReason: 'stop', usage };
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
      if (this.current === running) this.current = null;
    }
  }

  private running(): Running {
    if (!this.current) throw new Error('no reply is running');
    return this.current;
  }
}
