import type { ChatMessage, FinishReason, ReplySource, Retrieval, Usage } from '@palaver/contracts';

export interface ChatRequest {
  /** The assistant's model, or null for the configured default. */
  model: string | null;
  /** The full prompt: system message (instructions, page context, retrieved knowledge) and history. */
  messages: ChatMessage[];
  /** The retrieved knowledge as data, for models that answer from it directly (the local responder). */
  grounding: Retrieval;
  signal?: AbortSignal;
}

export type ModelChunk =
  /**
   * The documents the reply draws on, before its first delta, from a model that knows (the
   * local responder); otherwise the reply's sources are the documents of its grounding.
   */
  | { type: 'sources'; sources: ReplySource[] }
  | { type: 'delta'; delta: string }
  | { type: 'finish'; finishReason: FinishReason; usage: Usage };

/**
 * A chat model that streams. Upstream failures throw AppError('BAD_GATEWAY', ...) with
 * details.service; a stream may throw after some deltas.
 */
export interface ChatModel {
  readonly name: string;
  stream(request: ChatRequest): AsyncIterable<ModelChunk>;
}
