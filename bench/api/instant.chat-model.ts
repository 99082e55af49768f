import type { ChatModel, ChatRequest, ModelChunk } from '@palaver/platform';

const INSTANT_TEXT = 'Hello from the instant model.';

/**
 * A model that answers at once, so a benchmark measures the pipeline around it. With `hold`, the
 * first delta is sent at once and the rest waits for `release()` (the soak keeps streams open).
 */
export class InstantChatModel implements ChatModel {
  readonly name = 'instant';
  release: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly hold = false) {}

  async *stream(_request: ChatRequest): AsyncIterable<ModelChunk> {
    yield { type: 'delta', delta: INSTANT_TEXT };
    if (this.hold) await this.released;
    yield {
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 5, totalTokens: 6, reasoningTokens: 0, cachedInputTokens: 0 },
    };
  }
}
