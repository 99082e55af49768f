import type { ChatModel, ChatRequest, ModelChunk } from '@palaver/platform';

/**
 * A chat model that keeps every request and answers `Reply <n> to "<last user message>"` in a
 * few fragments, so a test can tell versions apart and see the history and prompt it was given.
 */
export class RecordingChatModel implements ChatModel {
  readonly name = 'recording';
  readonly requests: ChatRequest[] = [];

  async *stream(request: ChatRequest): AsyncIterable<ModelChunk> {
    this.requests.push(request);
    const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const text = `Reply ${this.requests.length} to "${last}"`;
    for (const word of text.split(/(?<= )/)) yield { type: 'delta', delta: word };
    yield {
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 0, cachedInputTokens: 0 },
    };
  }

  /** The conversation turns (not the system prompt) of the latest request. */
  lastTurns(): Array<{ role: string; content: string }> {
    return (this.requests.at(-1)?.messages ?? []).filter((m) => m.role !== 'system');
  }

  lastSystemPrompt(): string {
    return (this.requests.at(-1)?.messages ?? [])
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
  }
}
