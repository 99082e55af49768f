import { type Attributes, type Context, context, type Link, propagation, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { tracer, tracingEnabled } from './tracing';

export { SpanKind };

/**
 * Runs `work` in a span named `name` (`<service>.<operation>`), a child of the active span or of
 * `parent`; records a thrown error on it. Without tracing, runs `work` and nothing else.
 */
export const inSpan = <T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
  options: { kind?: SpanKind; parent?: Context; links?: Link[] } = {},
): Promise<T> => {
  if (!tracingEnabled()) return work(undefined);
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes, links: options.links },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (err) {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
        throw err;
      } finally {
        span.end();
      }
    },
  );
};

/** The W3C trace context of the active span, as carrier fields (`traceparent`, `tracestate`); null without tracing. */
export const currentTraceContext = (): Record<string, string> | null => {
  if (!tracingEnabled()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : null;
};

/** The context a carrier (NATS headers, job data) brings, to parent the spans of its handling. */
export const contextFrom = (carrier: Record<string, string | undefined> | undefined): Context =>
  carrier ? propagation.extract(context.active(), carrier) : context.active();

/**
 * The ids a span carries (never message text): the project and conversation of a request or job
 * whose payload names them.
 */
export const idAttributes = (payload: unknown): Attributes => {
  if (typeof payload !== 'object' || payload === null) return {};
  const { projectId, conversationId } = payload as { projectId?: unknown; conversationId?: unknown };
  const attributes: Attributes = {};
  if (typeof projectId === 'string') attributes['palaver.project_id'] = projectId;
  if (typeof conversationId === 'string') attributes['palaver.conversation_id'] = conversationId;
  return attributes;
};

/** `conversation.cmd.post-message.v1` → `conversation.post-message`. */
export const operationName = (subject: string): string => {
  const [service, , name] = subject.split('.');
  return name ? `${service}.${name}` : subject;
};
