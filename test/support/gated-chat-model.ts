import type { ChatModel, ChatRequest, ModelChunk } from '@palaver/platform';

/** A chat model the test controls: each reply waits until the test releases it with its text. */
export class GatedChatModel implements ChatModel {
  readonly name = 'gated';
  private waiting: Array<(text: string) => void> = [];
  private onStart: Array<() => void> = [];
  private started_ = 0;
  /** Set by `open`: every reply answers this at once. */
  private openWith: string | null = null;

  /** How many replies have reached the model so far (waiting or released). */
  get startedReplies(): number {
    return this.started_;
  }

  /** How many replies have started and wait for `release`. */
  get waitingReplies(): number {
    return this.waiting.length;
  }

  /** Resolves when a reply has started and waits for `release`. */
  started(): Promise<void> {
    if (this.waiting.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.onStart.push(resolve));
  }

  /** Releases every waiting reply and lets each later one answer at once with `text` (a test's cleanup). */
  open(text: string): void {
    this.openWith = text;
    while (this.waiting.length > 0) this.release(text);
  }

  /** Undoes `open`: later replies wait for `release` again. */
  close(): void {
    this.openWith = null;
  }

  release(text: string): void {
    const next = this.waiting.shift();
    if (!next) throw new Error('no reply is waiting');
    next(text);
  }

  async *stream(_request: ChatRequest): AsyncIterable<ModelChunk> {
    this.started_ += 1;
    const gate = this.openWith;
    const text = await new Promise<string>((resolve) => {
      if (gate !== null) return resolve(gate);
      this.waiting.push(resolve);
      for (const notify of this.onStart.splice(0)) notify();
    });
    yield { type: 'delta', delta: text };
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 0, cachedInputTokens: 0 };
    yield { type: 'finish', finishReason: 'stop', usage };
  }
}
