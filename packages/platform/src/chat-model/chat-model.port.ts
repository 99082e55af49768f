import type { ChatMessage, FinishReason, ReplySource, Retrieval, Usage } from '@palaver/contracts';

export interface ChatRequest {
  /** The assistant's model, or null for the configured default. */
  model: string | null;
  /** The full prompt: system message (instructions, page context, retrieved knowledge) and history. */
  messages: ChatMessage[];
  /** The retrieved knowledge as data, for models that answer from it directly (the local responder). */
  grounding: Retrieval;
  signal?: AbortSignal;
  /** Functions the model may call (no arguments); models without tool support ignore them. */
  tools?: ChatTool[];
}

export interface ChatTool {
  name: string;
  description: string;
}

export type ModelChunk =
  /**
   * The documents the reply draws on, before its first delta, from a model that knows (the
   * local responder); otherwise the reply's sources are the documents of its grounding.
   */
  | { type: 'sources'; sources: ReplySource[] }
  | { type: 'delta'; delta: string }
  /** `toolCalls`: names of the request's tools the model called. */
  | { type: 'finish'; finishReason: FinishReason; usage: Usage; toolCalls?: string[] };

/**
 * A chat model that streams. Upstream failures throw AppError('BAD_GATEWAY', ...) with
 * details.service; a stream may throw after some deltas.
 */
export interface ChatModel {
  readonly name: string;
  stream(request: ChatRequest): AsyncIterable<ModelChunk>;
}
