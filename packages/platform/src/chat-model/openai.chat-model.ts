import { AppError, type FinishReason, type Usage } from '@palaver/contracts';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatModel, ChatRequest, ModelChunk } from './chat-model.port';
import { upstreamError } from './openai-error';
import { countPromptTokens, countTokens } from './token-count';

export interface OpenAiChatModelOptions {
  baseURL: string;
  apiKey?: string | null;
  defaultModel: string;
  /** The stream fails when no data arrives for this long (before the first chunk or between two). */
  timeoutMs: number;
  /**
   * Retries of a request that failed before anything streamed (connection error, 408/409/429/5xx),
   * done by the SDK with backoff. Nothing is retried once text has been streamed.
   */
  maxRetries?: number;
}

/**
 * Chat completions against any OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp), streamed
 * with usage reported in the last chunk. Every upstream failure is AppError('BAD_GATEWAY') with
 * details.service 'llm'; when the caller aborts, the stream throws the signal's reason.
 */
export class OpenAiChatModel implements ChatModel {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private readonly defaultModel: string;
  private readonly timeoutMs: number;

  constructor(options: OpenAiChatModelOptions) {
    this.client = new OpenAI({
      baseURL: options.baseURL,
      // Local servers need no key, but the SDK insists on one.
      apiKey: options.apiKey || 'not-needed',
      maxRetries: options.maxRetries ?? 2,
      // The inactivity timer below is the deadline; the SDK's own would not cover the stream body.
      timeout: Math.max(options.timeoutMs * 10, 600_000),
    });
    this.defaultModel = options.defaultModel;
    this.timeoutMs = options.timeoutMs;
  }

  async *stream(request: ChatRequest): AsyncIterable<ModelChunk> {
    const callerSignal = request.signal;
    callerSignal?.throwIfAborted();
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.timeoutMs);
    };

    let text = '';
    let finishReason: FinishReason | null = null;
    let usage: CompletionUsage | null = null;
    const toolCalls = new Map<number, string>();
    try {
      arm();
      const stream = await this.client.chat.completions.create(
        {
          model: request.model ?? this.defaultModel,
          messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
          stream: true,
          stream_options: { include_usage: true },
          ...(request.tools?.length
            ? {
                tools: request.tools.map((tool) => ({
                  type: 'function' as const,
                  function: { name: tool.name, description: tool.description, parameters: { type: 'object', properties: {} } },
                })),
              }
            : {}),
        },
        { signal: controller.signal },
      );
      // An abort ends the SDK's iteration silently; the checks after the loop tell why it ended.
      for await (const chunk of stream) {
        arm();
        if (chunk.usage) usage = chunk.usage;
        const choice: ChatCompletionChunk.Choice | undefined = chunk.choices[0];
        const delta = choice?.delta?.content;
        if (delta) {
          text += delta;
          yield { type: 'delta', delta };
        }
        for (const call of choice?.delta?.tool_calls ?? []) {
          if (call.function?.name) toolCalls.set(call.index, (toolCalls.get(call.index) ?? '') + call.function.name);
        }
        if (choice?.finish_reason) finishReason = mapFinishReason(choice.finish_reason);
      }
    } catch (err) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timedOut) throw this.timeoutError();
      throw upstreamError(err, 'llm', 'the chat model');
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
      // Stops the HTTP request when the consumer stopped reading early.
      controller.abort();
    }
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timedOut) throw this.timeoutError();
    if (finishReason === null) {
      throw new AppError('BAD_GATEWAY', 'the chat model stream ended without a finish reason', { service: 'llm' });
    }
    yield {
      type: 'finish',
      finishReason,
      usage: usage ? mapUsage(usage) : estimatedUsage(request, text),
      ...(toolCalls.size > 0 ? { toolCalls: [...toolCalls.values()] } : {}),
    };
  }

  private timeoutError(): AppError {
    return new AppError('BAD_GATEWAY', `the chat model sent nothing for ${this.timeoutMs} ms`, {
      service: 'llm',
      reason: 'timeout',
    });
  }
}

export const mapFinishReason = (reason: string): FinishReason => {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'content_filter':
      return reason;
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    default:
      return 'other';
  }
};

export const mapUsage = (usage: CompletionUsage): Usage => ({
  inputTokens: usage.prompt_tokens,
  outputTokens: usage.completion_tokens,
  totalTokens: usage.total_tokens,
  reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
});

/** For servers that ignore `include_usage`: the project's tokenizer stands in for the model's. */
const estimatedUsage = (request: ChatRequest, text: string): Usage => {
  const inputTokens = countPromptTokens(request.messages);
  const outputTokens = countTokens(text);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, reasoningTokens: 0, cachedInputTokens: 0 };
};
