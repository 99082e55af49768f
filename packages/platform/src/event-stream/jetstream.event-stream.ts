import { AckPolicy, DeliverPolicy, connect, nanos } from 'nats';
import type { ConsumerConfig, ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg, NatsConnection } from 'nats';
import { logger } from '../logger/logger';
import type { EventStream, StreamMessage, StreamSubscription } from './event-stream.port';
import { assertValidDurable, assertValidFilter, assertValidSubject, redeliveryDelay } from './subject-filter';

type Handler = (message: StreamMessage) => Promise<void>;

export interface JetStreamEventStreamOptions {
  /** First wait before a message whose handler threw comes again (doubling up to 5 s). Default 200 ms. */
  redeliveryDelayMs?: number;
  /** How long an unacknowledged message stays with a consumer that went away. Default 30 s. */
  ackWaitMs?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The durable event stream on NATS JetStream. Publishing sets `Nats-Msg-Id`, so the stream's
 * duplicate window drops a repeated msgId. Each durable is a pull consumer with explicit acks and
 * `max_ack_pending: 1`: one message at a time, in order, even across the instances sharing it; a
 * handler that throws gets the message again (nak with a growing delay).
 */
export class JetStreamEventStream implements EventStream {
  private readonly subscriptions = new Set<JetStreamSubscription>();
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly streamName: string,
    private readonly options: Required<JetStreamEventStreamOptions>,
  ) {}

  static async connect(
    url: string,
    streamName = 'PALAVER_EVENTS',
    subjects: string[] = ['conversation.evt.>'],
    options: JetStreamEventStreamOptions = {},
  ): Promise<JetStreamEventStream> {
    const nc = await connect({ servers: url.split(',').map((s) => s.trim()), name: `palaver-event-stream-${streamName}` });
    try {
      const jsm = await nc.jetstreamManager();
      await ensureStream(jsm, streamName, subjects);
      return new JetStreamEventStream(nc, nc.jetstream(), jsm, streamName, {
        redeliveryDelayMs: options.redeliveryDelayMs ?? 200,
        ackWaitMs: options.ackWaitMs ?? 30_000,
      });
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  async publish(subject: string, payload: unknown, msgId: string): Promise<void> {
    if (this.closed) throw new Error('event stream is closed');
    assertValidSubject(subject);
    if (!msgId) throw new Error('publish needs a msgId');
    await this.js.publish(subject, encoder.encode(JSON.stringify(payload ?? null)), { msgID: msgId, expect: { streamName: this.streamName } });
  }

  async subscribe(durable: string, filter: string, handler: Handler): Promise<StreamSubscription> {
    if (this.closed) throw new Error('event stream is closed');
    assertValidDurable(durable);
    assertValidFilter(filter);
    await this.ensureConsumer(durable, filter);
    const consumer = await this.js.consumers.get(this.streamName, durable);
    // One message pulled at a time: nothing sits in a local buffer when the subscription stops.
    const messages = await consumer.consume({ max_messages: 1 });
    const subscription = new JetStreamSubscription(messages, handler, this.options.redeliveryDelayMs, () => this.subscriptions.delete(subscription));
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.nc.drain();
  }

  private async ensureConsumer(durable: string, filter: string): Promise<void> {
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: filter,
      max_ack_pending: 1,
      ack_wait: nanos(this.options.ackWaitMs),
    };
    const existing = await this.jsm.consumers.info(this.streamName, durable).catch((error: unknown) => {
      if (isNotFound(error)) return null;
      throw error;
    });
    if (!existing) {
      await this.jsm.consumers.add(this.streamName, config);
      return;
    }
    if (existing.config.filter_subject !== filter) {
      try {
        await this.jsm.consumers.update(this.streamName, durable, { filter_subject: filter });
      } catch (error) {
        throw new Error(`durable consumer ${durable} has filter ${existing.config.filter_subject}; changing it to ${filter} failed: ${(error as Error).message}`);
      }
    }
  }
}

class JetStreamSubscription implements StreamSubscription {
  private stopping = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly messages: ConsumerMessages,
    private readonly handler: Handler,
    private readonly redeliveryDelayMs: number,
    private readonly onStopped: () => void,
  ) {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.messages.stop();
    }
    await this.loop;
    this.onStopped();
  }

  private async run(): Promise<void> {
    try {
      for await (const m of this.messages) {
        // Pulled just as the subscription stopped: hand it straight back to the next subscriber.
        if (this.stopping) {
          m.nak();
          continue;
        }
        await this.deliver(m);
      }
    } catch (error) {
      if (!this.stopping) logger.error({ err: error }, 'event stream consumer ended');
    }
  }

  private async deliver(m: JsMsg): Promise<void> {
    let payload: unknown;
    try {
      payload = JSON.parse(decoder.decode(m.data));
    } catch (error) {
      // Not ours to retry forever: it can never be parsed.
      logger.error({ err: error, subject: m.subject, seq: m.seq }, 'dropping an event that is not JSON');
      m.term();
      return;
    }
    try {
      await this.handler({ subject: m.subject, payload, seq: m.seq });
      await m.ackAck();
    } catch (error) {
      const delay = redeliveryDelay(m.info.redeliveryCount, this.redeliveryDelayMs);
      logger.warn({ err: error, subject: m.subject, seq: m.seq, attempt: m.info.redeliveryCount, delay }, 'event handler failed; redelivering');
      m.nak(delay);
    }
  }
}

const ensureStream = async (jsm: JetStreamManager, name: string, subjects: string[]): Promise<void> => {
  const info = await jsm.streams.info(name).catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
  if (!info) {
    await jsm.streams.add({ name, subjects, duplicate_window: nanos(2 * 60_000) });
    return;
  }
  const missing = subjects.filter((s) => !info.config.subjects?.includes(s));
  if (missing.length > 0) await jsm.streams.update(name, { ...info.config, subjects: [...(info.config.subjects ?? []), ...missing] });
};

const isNotFound = (error: unknown): boolean => {
  const apiError = (error as { api_error?: { err_code?: number } }).api_error;
  return apiError?.err_code === 10059 || apiError?.err_code === 10014 || /not found/i.test((error as Error).message ?? '');
};
