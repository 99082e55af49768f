import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonCopy } from '../json/json-copy';
import { logger } from '../logger/logger';
import { JsonlLog } from '../storage/jsonl-log';
import { currentTraceContext, inSpan, SpanKind } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';
import { DEFAULT_MAX_DELIVERIES, type EventStream, type StreamMessage, type StreamSubscription } from './event-stream.port';
import { type BatchHandler, CONSUMERS_DIR, DurableConsumer, type LoggedMessage, readAckSeq } from './file.durable-consumer';
import { assertValidDurable, assertValidSubject, subjectMatcher } from './subject-filter';

type Handler = (message: StreamMessage) => Promise<void>;

export interface FileEventStreamOptions {
  /** First wait before a message whose handler threw comes again (doubling up to 5 s). Default 200 ms. */
  redeliveryDelayMs?: number;
  /** Tries before a failing message is dead-lettered. Default DEFAULT_MAX_DELIVERIES. */
  maxDeliveries?: number;
  /**
   * How long a message is kept: older ones go, whether a consumer has had them or not, as with
   * the JetStream stream's age limit. Default 30 days, the JetStream adapter's.
   */
  maxAgeMs?: number;
}

const LOG_FILE = 'stream.jsonl';
const DEFAULT_MAX_AGE_MS = 30 * 24 * 3600_000;
/** Expired messages the log may hold before it is rewritten without them (and at least as many as it keeps). */
const COMPACT_AFTER_EXPIRED = 1_000;
const COMPACT_RETRY_MS = 60_000;

/**
 * The embedded durable event stream: messages in an append-only JSONL log in `dir` (fsynced
 * before `publish` resolves), deduplicated by msgId across restarts; each durable consumer's
 * acknowledged position in its own file, replaced atomically in the background at most every
 * ACK_PERSIST_DELAY_MS (file.durable-consumer.ts; each write taking the newest position), so a crash may deliver the
 * messages handled in that time again: at-least-once, as with JetStream. Messages older than
 * `maxAgeMs` go (and their msgIds with them); the log is rewritten without them once they are as
 * many as the messages it keeps.
 */
export class FileEventStream implements EventStream {
  /**
   * The messages queued on the log, durable or not yet, in order: messages[i] has seq offset + i + 1.
   * Those before `head` have expired; the array lets go of them once they are most of it.
   */
  private messages: LoggedMessage[] = [];
  private offset = 0;
  private head = 0;
  private readonly msgIds = new Set<string>();
  /** Sequence number of the last message queued on the log (durable or not yet). */
  private lastSeq = 0;
  /** Sequence number of the last message on disk: consumers see none after it. */
  private durableSeq = 0;
  /** Expired messages the log file still holds. */
  private expiredInLog = 0;
  private compacting: Promise<void> | null = null;
  /** After a failed rewrite, when the next may be tried. */
  private compactNotBefore = 0;
  private readonly consumers = new Map<string, DurableConsumer>();
  private readonly wakers = new Set<() => void>();
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly log: JsonlLog<LoggedMessage>,
    readonly redeliveryDelayMs: number,
    readonly maxDeliveries: number,
    private readonly maxAgeMs: number,
  ) {}

  static async open(dir: string, options: FileEventStreamOptions = {}): Promise<FileEventStream> {
    await mkdir(join(dir, CONSUMERS_DIR), { recursive: true });
    const { log, records } = await JsonlLog.open<LoggedMessage>(join(dir, LOG_FILE));
    const stream = new FileEventStream(
      dir,
      log,
      options.redeliveryDelayMs ?? 200,
      options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES,
      options.maxAgeMs ?? DEFAULT_MAX_AGE_MS,
    );
    for (const record of records) {
      // A rewrite may hold a message that was also appended after it (see `compact`).
      if (record.seq <= stream.lastSeq) continue;
      if (stream.messages.length > 0 && record.seq !== stream.lastSeq + 1) {
        throw new Error(`${join(dir, LOG_FILE)} skips from message ${stream.lastSeq} to ${record.seq}: messages are missing`);
      }
      stream.messages.push(record);
      stream.msgIds.add(record.msgId);
      stream.lastSeq = record.seq;
    }
    stream.offset = stream.lastSeq - stream.messages.length;
    stream.durableSeq = stream.lastSeq;
    stream.expire(Date.now());
    return stream;
  }

  deadLetterSubject(durable: string): string {
    assertValidDurable(durable);
    return `deadletter.${durable}`;
  }

  publish(subject: string, payload: unknown, msgId: string): Promise<void> {
    if (!tracingEnabled()) return this.append(subject, payload, msgId);
    return inSpan(
      'events.publish',
      { 'messaging.destination.name': subject, 'messaging.message.id': msgId },
      () => this.append(subject, payload, msgId),
      {
        kind: SpanKind.PRODUCER,
      },
    );
  }

  private async append(subject: string, payload: unknown, msgId: string): Promise<void> {
    assertValidSubject(subject);
    if (!msgId) throw new Error('publish needs a msgId');
    if (this.closed) throw new Error('event stream is closed');
    // Queued on the log at once, in call order, without waiting for the fsync of the ones before:
    // publications made in one turn of the event loop (a command's events) go out in one write,
    // and those made while it is under way share the next one (group commit). Consumers see a
    // message only once it is durable, in order.
    if (this.msgIds.has(msgId)) return this.log.durable();
    const copy = payload === undefined ? null : jsonCopy(payload); // before the seq: a payload that is no JSON takes none
    const now = Date.now();
    const trace = currentTraceContext();
    const message: LoggedMessage = trace
      ? { seq: ++this.lastSeq, subject, payload: copy, msgId, at: now, trace }
      : { seq: ++this.lastSeq, subject, payload: copy, msgId, at: now };
    this.msgIds.add(msgId);
    this.messages.push(message);
    this.expire(now);
    await this.log.append([message]);
    // Appends are durable in call order, so every message up to this one is.
    if (message.seq > this.durableSeq) this.durableSeq = message.seq;
    for (const wake of [...this.wakers]) wake();
  }

  subscribe(durable: string, filter: string, handler: Handler): Promise<StreamSubscription> {
    return this.subscribeBatches(durable, filter, (messages) => handler(messages[0]!), 1);
  }

  async subscribeBatches(durable: string, filter: string, handler: BatchHandler, maxBatch: number): Promise<StreamSubscription> {
    if (this.closed) throw new Error('event stream is closed');
    assertValidDurable(durable);
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`maxBatch must be a positive integer, not ${maxBatch}`);
    const matches = subjectMatcher(filter);
    let consumer = this.consumers.get(durable);
    if (!consumer) {
      consumer = new DurableConsumer(this, durable, join(this.dir, CONSUMERS_DIR, `${durable}.json`), await readAckSeq(this.dir, durable));
      this.consumers.set(durable, consumer);
    }
    return consumer.attach(filter, matches, { handler, maxBatch });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers.values()].map((c) => c.stopAll()));
    await this.compacting;
    await this.log.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The first `max` messages after `seq` whose subjects match (none when there are none yet). */
  messagesAfter(seq: number, matches: (subject: string) => boolean, max: number): LoggedMessage[] {
    const found: LoggedMessage[] = [];
    const end = this.durableSeq - this.offset;
    for (let i = Math.max(this.head, seq - this.offset); i < end && found.length < max; i++) {
      const message = this.messages[i]!;
      if (matches(message.subject)) found.push(message);
    }
    return found;
  }

  /**
   * Lets go of the messages older than maxAgeMs (a consumer behind them goes on from the first
   * one kept, as with JetStream), and rewrites the log without them once they are at least
   * COMPACT_AFTER_EXPIRED and as many as the messages kept.
   */
  private expire(now: number): void {
    const cutoff = now - this.maxAgeMs;
    let head = this.head;
    while (head < this.messages.length && (this.messages[head]!.at ?? Number.POSITIVE_INFINITY) < cutoff) {
      this.msgIds.delete(this.messages[head]!.msgId);
      head += 1;
    }
    if (head > this.head) {
      this.expiredInLog += head - this.head;
      this.head = head;
      if (head * 2 > this.messages.length) {
        this.messages = this.messages.slice(head);
        this.offset += head;
        this.head = 0;
      }
    }
    const kept = this.messages.length - this.head;
    if (this.expiredInLog >= Math.max(COMPACT_AFTER_EXPIRED, kept) && !this.compacting && !this.closed && now >= this.compactNotBefore) {
      this.compacting = this.compact(now).finally(() => {
        this.compacting = null;
      });
    }
  }

  /**
   * Rewrites the log with the messages kept when the rewrite runs: every message queued before it
   * is among them (messages are held from the moment they are queued), and one queued while it
   * is written may also be appended after it, which `open` skips.
   */
  private async compact(now: number): Promise<void> {
    const expired = this.expiredInLog;
    try {
      await this.log.rewrite(this.keptMessages());
      this.expiredInLog -= expired;
    } catch (error) {
      this.compactNotBefore = now + COMPACT_RETRY_MS;
      logger.error({ err: error }, 'event stream: could not rewrite its log without the expired messages; it will try again');
    }
  }

  /** The messages kept, as they are when the rewrite starts reading them. */
  private *keptMessages(): Generator<LoggedMessage> {
    const { messages, head } = this;
    const end = messages.length;
    for (let i = head; i < end; i++) yield messages[i]!;
  }

  /** Resolves at the next publish or when `wake` is called, whichever is first. */
  waitForPublish(): { promise: Promise<void>; wake: () => void } {
    let wake!: () => void;
    const promise = new Promise<void>((resolve) => {
      wake = () => {
        this.wakers.delete(wake);
        resolve();
      };
      this.wakers.add(wake);
    });
    return { promise, wake };
  }
}
