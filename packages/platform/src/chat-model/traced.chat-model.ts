import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracer, tracingEnabled } from '../tracing/tracing';
import type { ChatModel, ChatRequest, ModelChunk } from './chat-model.port';

/**
 * The model call as a span, `inference.model-call`, from the request to the last chunk, with the
 * model's name, the finish reason and the token counts (never the text). Without tracing, the
 * model's own stream.
 */
export class TracedChatModel implements ChatModel {
  constructor(private readonly model: ChatModel) {}

  get name(): string {
    return this.model.name;
  }

  stream(request: ChatRequest): AsyncIterable<ModelChunk> {
    if (!tracingEnabled()) return this.model.stream(request);
    return this.traced(request);
  }

  private async *traced(request: ChatRequest): AsyncIterable<ModelChunk> {
    const span = tracer().startSpan('inference.model-call', {
      kind: SpanKind.CLIENT,
      attributes: { 'gen_ai.system': this.model.name, 'gen_ai.request.model': request.model ?? this.model.name },
    });
    const inSpan = trace.setSpan(context.active(), span);
    try {
      const chunks = context.with(inSpan, () => this.model.stream(request))[Symbol.asyncIterator]();
      while (true) {
        const next = await context.with(inSpan, () => chunks.next());
        if (next.done) break;
        const chunk = next.value;
        if (chunk.type === 'finish') {
          span.setAttributes({
            'gen_ai.response.finish_reasons': [chunk.finishReason],
            'gen_ai.usage.input_tokens': chunk.usage.inputTokens,
            'gen_ai.usage.output_tokens': chunk.usage.outputTokens,
          });
        }
        yield chunk;
      }
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  }
}
