import type { Consumer, ConsumerConfig, ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg, MsgHdrs } from 'nats';
import { AckPolicy, DeliverPolicy, DiscardPolicy, headers, nanos } from 'nats';
import { logger } from '../logger/logger';
import { inSpan, SpanKind } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';
import { NatsRequestMux } from '../transport/nats-request-mux';
import { type NatsLease, SharedNatsConnection } from '../transport/shared-nats-connection';
import { utf8 } from '../transport/utf8';
import {
  DEFAULT_MAX_DELIVERIES,
  type DeadLetter,
  type EventStream,
  type StreamMessage,
  type StreamSubscription,
} from './event-stream.port';
import { consumeTraced, injectTraceHeaders, jetStreamCarrier } from './event-trace';
import { assertValidDurable, assertValidFilter, assertValidSubject, redeliveryDelay } from './subject-filter';

type Handler = (message: StreamMessage) => Promise<void>;
type BatchHandler = (messages: StreamMessage[]) => Promise<void>;

export interface JetStreamEventStreamOptions {
  /** First wait before a message whose handler threw comes again (doubling up to 5 s). Default 200 ms. */
  redeliveryDelayMs?: number;
  /**
   * How long an unacknowledged message stays with a consumer that went away (killed). A handler
   * still working extends it every third of this. Default 5 s.
   */
  ackWaitMs?: number;
  /** Tries before a failing message is dead-lettered. Default DEFAULT_MAX_DELIVERIES. */
  maxDeliveries?: number;
  /** Stream limits: the oldest messages go first past either. Defaults 30 days, 1 GiB. */
  maxAgeMs?: number;
  maxBytes?: number;
}

/** How long a publication waits for the stream's acknowledgement (the client's default). */
const PUBLISH_TIMEOUT_MS = 5_000;

/** The stream's answer to a publication: where it stored it, or why not. */
interface PubAckAnswer {
  error?: { code: number; description: string };
}

const decoder = new TextDecoder();

/**
 * The durable event stream on NATS JetStream. Publishing sets `Nats-Msg-Id`, so the stream's
 * duplicate window drops a repeated msgId. Each durable is a pull consumer with explicit acks and
 * `max_ack_pending` set to its batch size: with `subscribe` (1), one message at a time, in order,
 * even across the instances sharing it; a handler that throws gets the message again (nak with a
 * growing delay). The stream, its pull subscription and the message handling are kept in one file
 * because they share the consumer's configuration and ack rules, which must agree.
 */
export class JetStreamEventStream implements EventStream {
  private readonly subscriptions = new Set<JetStreamSubscription>();
  private closed = false;
  private readonly requests: NatsRequestMux;

  private constructor(
    private readonly lease: NatsLease,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly streamName: string,
    private readonly options: Required<JetStreamEventStreamOptions>,
  ) {
    this.requests = new NatsRequestMux(lease);
  }

  /** On `connection` (the process's shared one), or on a connection of its own to the server list `connection`. */
  static async connect(
    connection: SharedNatsConnection | string,
    streamName = 'PALAVER_EVENTS',
    subjects: string[] = ['conversation.evt.>'],
    options: JetStreamEventStreamOptions = {},
  ): Promise<JetStreamEventStream> {
    const lease = await (typeof connection === 'string' ? new SharedNatsConnection(connection) : connection).lease();
    const { nc } = lease;
    try {
      const settings: Required<JetStreamEventStreamOptions> = {
        redeliveryDelayMs: options.redeliveryDelayMs ?? 200,
        ackWaitMs: options.ackWaitMs ?? 5_000,
        maxDeliveries: options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES,
        maxAgeMs: options.maxAgeMs ?? 30 * 24 * 3600_000,
        maxBytes: options.maxBytes ?? 1024 ** 3,
      };
      const jsm = await nc.jetstreamManager();
      await ensureStream(jsm, streamName, [...subjects, `deadletter.${streamName}.>`], settings);
      const stream = new JetStreamEventStream(lease, nc.jetstream(), jsm, streamName, settings);
      return stream;
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  deadLetterSubject(durable: string): string {
    assertValidDurable(durable);
    return `deadletter.${this.streamName}.${durable}`;
  }

  async publish(subject: string, payload: unknown, msgId: string): Promise<void> {
    if (this.closed) throw new Error('event stream is closed');
    assertValidSubject(subject);
    if (!msgId) throw new Error('publish needs a msgId');
    // The client's js.publish, through NatsRequestMux (see there why).
    const meta = headers();
    meta.set('Nats-Msg-Id', msgId);
    meta.set('Nats-Expected-Stream', this.streamName);
    if (tracingEnabled())
      return inSpan(
        'events.publish',
        { 'messaging.destination.name': subject, 'messaging.message.id': msgId },
        () => this.send(subject, payload, meta),
        { kind: SpanKind.PRODUCER },
      );
    return this.send(subject, payload, meta);
  }

  private async send(subject: string, payload: unknown, meta: MsgHdrs): Promise<void> {
    injectTraceHeaders(meta);
    const ack = await this.requests.request(subject, utf8(JSON.stringify(payload ?? null)), PUBLISH_TIMEOUT_MS, meta);
    const answer = JSON.parse(decoder.decode(ack.data)) as PubAckAnswer;
    if (answer.error) throw new Error(`JetStream did not store ${subject}: ${answer.error.description} (${answer.error.code})`);
  }

  subscribe(durable: string, filter: string, handler: Handler): Promise<StreamSubscription> {
    return this.subscribeBatches(durable, filter, (messages) => handler(messages[0]!), 1);
  }

  async subscribeBatches(durable: string, filter: string, handler: BatchHandler, maxBatch: number): Promise<StreamSubscription> {
    if (this.closed) throw new Error('event stream is closed');
    assertValidDurable(durable);
    assertValidFilter(filter);
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`maxBatch must be a positive integer, not ${maxBatch}`);
    await this.ensureConsumer(durable, filter, maxBatch);
    const consumer = await this.js.consumers.get(this.streamName, durable);
    const subscription = new JetStreamSubscription(
      durable,
      consumer,
      handler,
      maxBatch,
      this.options,
      (letter) => this.publish(this.deadLetterSubject(durable), { ...letter, durable }, `dead-${durable}-${letter.seq}`),
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.requests.close();
    await this.lease.release();
  }

  private async ensureConsumer(durable: string, filter: string, maxAckPending: number): Promise<void> {
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: filter,
      max_ack_pending: maxAckPending,
      ack_wait: nanos(this.options.ackWaitMs),
      // Dead-lettering is ours (after maxDeliveries tries): the server never gives up on its own.
      max_deliver: -1,
    };
    const existing = await this.jsm.consumers.info(this.streamName, durable).catch((error: unknown) => {
      if (isNotFound(error)) return null;
      throw error;
    });
    if (!existing) {
      await this.jsm.consumers.add(this.streamName, config);
      return;
    }
    if (
      existing.config.filter_subject !== filter ||
      existing.config.ack_wait !== config.ack_wait ||
      existing.config.max_ack_pending !== maxAckPending
    ) {
      try {
        await this.jsm.consumers.update(this.streamName, durable, {
          filter_subject: filter,
          ack_wait: config.ack_wait,
          max_ack_pending: maxAckPending,
        });
      } catch (error) {
        throw new Error(
          `durable consumer ${durable} has filter ${existing.config.filter_subject} and max_ack_pending ${existing.config.max_ack_pending}; changing them to ${filter} and ${maxAckPending} failed: ${(error as Error).message}`,
        );
      }
    }
  }
}

/**
 * Pulls up to a batch of messages at a time and hands over those that have arrived (a batch never
 * waits for more), and pulls again whenever the pull ends without being stopped (the server
 * restarted, the consumer was lost), so a consumer outlives any NATS outage. Messages pulled as the
 * subscription stops are handed straight back (nak) for the next subscriber.
 */
class JetStreamSubscription implements StreamSubscription {
  private stopping = false;
  private messages: ConsumerMessages | null = null;
  /** Messages read and not yet handed to the handler, in stream order. */
  private arrived: JsMsg[] = [];
  /** The batches being handed over, while there are any (see arrive). */
  private handing: Promise<void> | null = null;
  private readonly loop: Promise<void>;

  constructor(
    private readonly durable: string,
    private readonly consumer: Consumer,
    private readonly handler: BatchHandler,
    private readonly maxBatch: number,
    private readonly options: Required<JetStreamEventStreamOptions>,
    private readonly deadLetter: (letter: Omit<DeadLetter, 'durable'>) => Promise<void>,
    private readonly onStopped: () => void,
  ) {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.messages?.stop();
    }
    await this.loop;
    this.onStopped();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        this.messages = await this.consumer.consume({ max_messages: this.maxBatch, callback: (m) => this.arrive(m) });
        if (this.stopping) this.messages.stop();
        const error = await this.messages.closed();
        if (error && !this.stopping) logger.warn({ err: error }, 'event stream consumer interrupted; pulling again');
      } catch (error) {
        if (!this.stopping) logger.warn({ err: error }, 'event stream consumer interrupted; pulling again');
      }
      await this.handing;
      if (!this.stopping) await sleep(1_000);
    }
  }

  /**
   * The client hands over each message as it reads it; one batch at a time goes to the handler,
   * made of every message that has arrived by then (a batch never waits for more). The server
   * sends no more than `max_ack_pending` unacknowledged, which bounds what waits here.
   */
  private arrive(m: JsMsg): void {
    this.arrived.push(m);
    if (this.handing === null) this.handing = this.handArrived();
  }

  private async handArrived(): Promise<void> {
    try {
      await nextTurn(); // the rest of what the client is reading joins the first batch
      while (this.arrived.length > 0) {
        const batch = this.arrived.splice(0, this.maxBatch);
        if (this.stopping) for (const m of batch) m.nak();
        else await this.deliverBatch(batch);
      }
    } finally {
      this.handing = null;
    }
  }

  /** The batch to the handler, acknowledged whole; when it fails, its messages again one at a time. */
  private async deliverBatch(batch: JsMsg[]): Promise<void> {
    if (batch.length === 1) return this.deliver(batch[0]!);
    const parsed: Array<{ m: JsMsg; message: StreamMessage }> = [];
    for (const m of batch) {
      const payload = parse(m);
      if (payload !== UNPARSABLE) parsed.push({ m, message: { subject: m.subject, payload, seq: m.seq } });
    }
    if (parsed.length === 0) return;
    const working = setInterval(
      () => {
        for (const { m } of parsed) m.working();
      },
      Math.max(100, Math.floor(this.options.ackWaitMs / 3)),
    );
    try {
      await consumeTraced(this.durable, batch.map(jetStreamCarrier), () => this.handler(parsed.map((p) => p.message)));
    } catch (error) {
      logger.warn(
        { err: error, from: parsed[0]!.m.seq, to: parsed.at(-1)!.m.seq },
        'event batch failed; delivering its events one at a time',
      );
      for (const { m } of parsed) await this.deliver(m);
      return;
    } finally {
      clearInterval(working);
    }
    for (const { m } of parsed) m.ack();
  }

  private async deliver(m: JsMsg): Promise<void> {
    const payload = parse(m);
    if (payload === UNPARSABLE) return;
    // A long handler tells the server it is still working, so the message is not sent elsewhere.
    const working = setInterval(() => m.working(), Math.max(100, Math.floor(this.options.ackWaitMs / 3)));
    try {
      await consumeTraced(this.durable, [jetStreamCarrier(m)], () => this.handler([{ subject: m.subject, payload, seq: m.seq }]));
      clearInterval(working);
      // A plain ack, not a confirmed one: the server takes a lost ack for a failure and delivers
      // the message again, which at-least-once handlers take already. Waiting for the
      // confirmation cost a round trip each.
      m.ack();
    } catch (error) {
      clearInterval(working);
      const deliveries = m.info.redeliveryCount;
      if (deliveries >= this.options.maxDeliveries) {
        const reason = error instanceof Error ? error.message : String(error);
        logger.error({ err: error, subject: m.subject, seq: m.seq, deliveries }, 'event dead-lettered after its last try');
        try {
          await this.deadLetter({ subject: m.subject, seq: m.seq, payload, error: reason, deliveries });
          m.ack();
          return;
        } catch (err) {
          logger.error({ err }, 'could not dead-letter an event; trying it again');
        }
      }
      const delay = redeliveryDelay(deliveries, this.options.redeliveryDelayMs);
      logger.warn({ err: error, subject: m.subject, seq: m.seq, attempt: deliveries, delay }, 'event handler failed; redelivering');
      m.nak(delay);
    }
  }
}

const UNPARSABLE = Symbol('unparsable');

/** The message's JSON payload; one that is not JSON can never be handled, so it is dropped (term) here. */
const parse = (m: JsMsg): unknown => {
  try {
    return JSON.parse(decoder.decode(m.data));
  } catch (error) {
    logger.error({ err: error, subject: m.subject, seq: m.seq }, 'dropping an event that is not JSON');
    m.term();
    return UNPARSABLE;
  }
};

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates the stream, or brings an existing one's subjects and limits up to date. */
const ensureStream = async (
  jsm: JetStreamManager,
  name: string,
  subjects: string[],
  limits: { maxAgeMs: number; maxBytes: number },
): Promise<void> => {
  const wanted = { max_age: nanos(limits.maxAgeMs), max_bytes: limits.maxBytes, discard: DiscardPolicy.Old };
  const info = await jsm.streams.info(name).catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
  if (!info) {
    await jsm.streams.add({ name, subjects, duplicate_window: nanos(2 * 60_000), ...wanted });
    return;
  }
  const missing = subjects.filter((s) => !info.config.subjects?.includes(s));
  const stale = info.config.max_age !== wanted.max_age || info.config.max_bytes !== wanted.max_bytes;
  if (missing.length > 0 || stale) {
    await jsm.streams.update(name, { ...info.config, ...wanted, subjects: [...(info.config.subjects ?? []), ...missing] });
  }
};

const isNotFound = (error: unknown): boolean => {
  const apiError = (error as { api_error?: { err_code?: number } }).api_error;
  return apiError?.err_code === 10059 || apiError?.err_code === 10014 || /not found/i.test((error as Error).message ?? '');
};
