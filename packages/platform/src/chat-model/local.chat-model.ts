import type { Usage } from '@palaver/contracts';
import type { ChatModel, ChatRequest, ModelChunk } from './chat-model.port';
import { DEFAULT_GROUNDED_ANSWER_OPTIONS, type GroundedAnswerOptions, groundedAnswer } from './grounded-answer';
import { lastUserMessage } from './last-user-message';
import { countPromptTokens, countTokens } from './token-count';

export interface LocalResponderOptions extends Partial<GroundedAnswerOptions> {
  /** Words per streamed fragment. */
  wordsPerFragment?: number;
}

/**
 * The embedded chat model: no download, no network. It answers the last user message from the
 * retrieved knowledge only (a confident Q&A match verbatim, else the relevant sentences of a
 * matching document with its source, else an honest "I don't know"), streamed in word groups.
 * Usage is measured with the project's tokenizer (token-count.ts) on the prompt and the answer.
 */
export class LocalResponder implements ChatModel {
  readonly name = 'local';
  private readonly answerOptions: GroundedAnswerOptions;
  private readonly wordsPerFragment: number;

  constructor(options: LocalResponderOptions = {}) {
    const { wordsPerFragment = 3, ...thresholds } = options;
    this.answerOptions = { ...DEFAULT_GROUNDED_ANSWER_OPTIONS, ...thresholds };
    this.wordsPerFragment = Math.max(1, Math.floor(wordsPerFragment));
  }

  async *stream(request: ChatRequest): AsyncIterable<ModelChunk> {
    request.signal?.throwIfAborted();
    const question = lastUserMessage(request.messages) ?? '';
    const { text, documents } = groundedAnswer(question, request.grounding, this.answerOptions);
    yield { type: 'sources', sources: documents };
    for (const delta of fragments(text, this.wordsPerFragment)) {
      // A turn of the event loop between fragments: streaming is observable and abortable.
      await new Promise<void>((resolve) => setImmediate(resolve));
      request.signal?.throwIfAborted();
      yield { type: 'delta', delta };
    }
    const inputTokens = countPromptTokens(request.messages);
    const outputTokens = countTokens(text);
    const usage: Usage = {
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      reasoningTokens: 0,
      cachedInputTokens: 0,
    };
    yield { type: 'finish', finishReason: 'stop', usage };
  }
}

/** Groups of `size` words, whitespace kept, so that the fragments concatenate to the text. */
export const fragments = (text: string, size: number): string[] =>
  text.match(new RegExp(String.raw`\s*(?:\S+\s*){1,${size}}`, 'gu')) ?? (text ? [text] : []);
