import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { copyJsonValue, jsonCopy } from '../json/json-copy';
import { logger } from '../logger/logger';
import { writeFileAtomic } from '../storage/durable-file';
import { JsonlLog } from '../storage/jsonl-log';
import {
  DEFAULT_MAX_DELIVERIES,
  type DeadLetter,
  type EventStream,
  type StreamMessage,
  type StreamSubscription,
} from './event-stream.port';
import { assertValidDurable, assertValidSubject, redeliveryDelay, subjectMatcher } from './subject-filter';

type Handler = (message: StreamMessage) => Promise<void>;
type BatchHandler = (messages: StreamMessage[]) => Promise<void>;
/** `at`: when it was published (ms since the epoch). */
type LoggedMessage = { seq: number; subject: string; payload: unknown; msgId: string; at: number };

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
/** How long a consumer's new position may wait before it is written (one write covers them all). */
const ACK_PERSIST_DELAY_MS = 100;
const CONSUMERS_DIR = 'consumers';
const DEFAULT_MAX_AGE_MS = 30 * 24 * 3600_000;
/** Expired messages the log may hold before it is rewritten without them (and at least as many as it keeps). */
const COMPACT_AFTER_EXPIRED = 1_000;
const COMPACT_RETRY_MS = 60_000;

/**
 * The embedded durable event stream: messages in an append-only JSONL log in `dir` (fsynced
 * before `publish` resolves), deduplicated by msgId across restarts; each durable consumer's
 * acknowledged position in its own file, replaced atomically in the background at most every
 * ACK_PERSIST_DELAY_MS (each write taking the newest position), so a crash may deliver the
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

  async publish(subject: string, payload: unknown, msgId: string): Promise<void> {
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
    const message: LoggedMessage = { seq: ++this.lastSeq, subject, payload: copy, msgId, at: now };
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
    while (head < this.messages.length && this.messages[head]!.at < cutoff) {
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

interface Attachment {
  handler: BatchHandler;
  maxBatch: number;
}

/**
 * One durable consumer: delivers its messages in order, a batch (of up to the handler's
 * `maxBatch`) at a time, to its attached handlers in turn.
 */
class DurableConsumer {
  private readonly attachments: Attachment[] = [];
  private filter: string | null = null;
  private matches: (subject: string) => boolean = () => false;
  private turn = 0;
  private loop: Promise<void> | null = null;
  private delivery: { attachment: Attachment; done: Promise<unknown> } | null = null;
  private wake: (() => void) | null = null;
  /** The position on disk, and the write bringing it up to `ackSeq` (null when none is due). */
  private persistedSeq: number;
  private persisting: Promise<void> | null = null;
  private persistTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly stream: FileEventStream,
    private readonly durable: string,
    private readonly path: string,
    private ackSeq: number,
  ) {
    this.persistedSeq = ackSeq;
  }

  attach(filter: string, matches: (subject: string) => boolean, attachment: Attachment): StreamSubscription {
    if (this.attachments.length > 0 && filter !== this.filter) {
      throw new Error(`durable consumer is already subscribed with filter ${this.filter}, not ${filter}`);
    }
    this.filter = filter;
    this.matches = matches;
    this.attachments.push(attachment);
    this.loop ??= this.run().finally(() => {
      this.loop = null;
    });
    let stopped = false;
    return {
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await this.detach(attachment);
      },
    };
  }

  /** Detaches every handler and writes the last position now. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.attachments].map((a) => this.detach(a)));
    await this.persisting;
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    await this.persist();
  }

  private async detach(attachment: Attachment): Promise<void> {
    const index = this.attachments.indexOf(attachment);
    if (index >= 0) this.attachments.splice(index, 1);
    this.wake?.();
    if (this.attachments.length === 0) await this.loop;
    else if (this.delivery?.attachment === attachment) await this.delivery.done.catch(() => undefined);
  }

  private active(): boolean {
    return this.attachments.length > 0 && !this.stream.isClosed;
  }

  private async run(): Promise<void> {
    let attempt = 0;
    /** A batch that failed comes again one message at a time, up to its last one. */
    let singlyUntil = 0;
    while (this.active()) {
      const attachment = this.attachments[this.turn % this.attachments.length]!;
      const batch = this.stream.messagesAfter(this.ackSeq, this.matches, this.ackSeq < singlyUntil ? 1 : attachment.maxBatch);
      if (batch.length === 0) {
        const { promise, wake } = this.stream.waitForPublish();
        this.wake = wake;
        await promise;
        this.wake = null;
        continue;
      }
      this.turn++;
      const delivered = batch.map((m): StreamMessage => ({ subject: m.subject, payload: copyJsonValue(m.payload), seq: m.seq }));
      const done = Promise.resolve().then(() => attachment.handler(delivered));
      this.delivery = { attachment, done };
      try {
        await done;
      } catch (error) {
        if (batch.length > 1) {
          logger.warn(
            { err: error, from: batch[0]!.seq, to: batch.at(-1)!.seq },
            'event batch failed; delivering its events one at a time',
          );
          singlyUntil = batch.at(-1)!.seq;
          continue;
        }
        const message = batch[0]!;
        attempt += 1;
        if (attempt >= this.stream.maxDeliveries) {
          const dead = await this.deadLetter(message, error, attempt);
          this.delivery = null;
          if (!dead) continue;
          attempt = 0;
          this.acknowledge(message.seq);
          continue;
        }
        const delay = redeliveryDelay(attempt, this.stream.redeliveryDelayMs);
        logger.warn({ err: error, subject: message.subject, seq: message.seq, attempt, delay }, 'event handler failed; redelivering');
        await this.sleep(delay);
        continue;
      } finally {
        this.delivery = null;
      }
      attempt = 0;
      this.acknowledge(batch.at(-1)!.seq);
    }
  }

  /** Moves on at once; the position reaches the disk a little later (see `persist`). */
  private acknowledge(seq: number): void {
    this.ackSeq = seq;
    this.schedulePersist();
  }

  /** A write ACK_PERSIST_DELAY_MS from now, unless one is already due or running (which schedules the next). */
  private schedulePersist(): void {
    if (this.persistTimer || this.persisting) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = null;
      this.persisting = this.persist().finally(() => {
        this.persisting = null;
        if (this.persistedSeq < this.ackSeq) this.schedulePersist();
      });
    }, ACK_PERSIST_DELAY_MS);
    this.persistTimer.unref();
  }

  /**
   * Writes the newest position. A failed write is logged and tried again ACK_PERSIST_DELAY_MS
   * later: until it succeeds, a restart delivers the messages after the file's position again.
   */
  private async persist(): Promise<void> {
    if (this.persistedSeq >= this.ackSeq) return;
    const seq = this.ackSeq;
    try {
      await writeFileAtomic(this.path, JSON.stringify({ ackSeq: seq }));
      this.persistedSeq = seq;
    } catch (error) {
      logger.error({ err: error, path: this.path }, 'could not persist consumer position');
    }
  }

  /** Publishes the message to the dead-letter subject; false (and it is tried again) if that failed. */
  private async deadLetter(message: LoggedMessage, error: unknown, deliveries: number): Promise<boolean> {
    const letter: DeadLetter = {
      durable: this.durable,
      subject: message.subject,
      seq: message.seq,
      payload: message.payload,
      error: error instanceof Error ? error.message : String(error),
      deliveries,
    };
    logger.error({ err: error, subject: message.subject, seq: message.seq, deliveries }, 'event dead-lettered after its last try');
    try {
      await this.stream.publish(this.stream.deadLetterSubject(this.durable), letter, `dead-${this.durable}-${message.seq}`);
      return true;
    } catch (err) {
      logger.error({ err }, 'could not dead-letter an event; trying it again');
      await this.sleep(this.stream.redeliveryDelayMs);
      return false;
    }
  }

  /** Waits `ms`, or less when the consumer is stopped meanwhile. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}

const readAckSeq = async (dir: string, durable: string): Promise<number> => {
  try {
    const state = JSON.parse(await readFile(join(dir, CONSUMERS_DIR, `${durable}.json`), 'utf8')) as { ackSeq?: unknown };
    return typeof state.ackSeq === 'number' ? state.ackSeq : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
};
