import { type Link, trace } from '@opentelemetry/api';
import type { JsMsg, MsgHdrs } from 'nats';
import { contextFrom, currentTraceContext, inSpan, SpanKind } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';

type Carrier = Record<string, string | undefined> | undefined;

/** Adds the publisher's W3C trace context to a message's headers, when tracing. */
export const injectTraceHeaders = (meta: MsgHdrs): void => {
  const carrier = currentTraceContext();
  if (carrier) for (const [key, value] of Object.entries(carrier)) meta.set(key, value);
};

/** The trace context a JetStream message's headers carry. */
export const jetStreamCarrier = (m: JsMsg): Carrier => {
  const traceparent = m.headers?.get('traceparent');
  return traceparent ? { traceparent, tracestate: m.headers?.get('tracestate') || undefined } : undefined;
};

/**
 * Runs a durable consumer's handler in a span `<durable>.consume`: the child of the publisher's
 * span for one message, linked to each publisher's span for a batch (a batch has no one parent).
 * `carriers`: each message's trace context, as its publisher left it.
 */
export const consumeTraced = (durable: string, carriers: readonly Carrier[], handle: () => Promise<void>): Promise<void> => {
  if (!tracingEnabled()) return handle();
  const attributes = { 'messaging.consumer.group.name': durable, 'messaging.batch.message_count': carriers.length };
  if (carriers.length === 1)
    return inSpan(`${durable}.consume`, attributes, handle, { kind: SpanKind.CONSUMER, parent: contextFrom(carriers[0]) });
  const links: Link[] = [];
  for (const carrier of carriers) {
    const context = carrier && trace.getSpanContext(contextFrom(carrier));
    if (context) links.push({ context });
  }
  return inSpan(`${durable}.consume`, attributes, handle, { kind: SpanKind.CONSUMER, links });
};
