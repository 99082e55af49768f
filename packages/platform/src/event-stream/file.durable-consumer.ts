import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { copyJsonValue } from '../json/json-copy';
import { logger } from '../logger/logger';
import { writeFileAtomic } from '../storage/durable-file';
import type { DeadLetter, StreamMessage, StreamSubscription } from './event-stream.port';
import { consumeTraced } from './event-trace';
import { redeliveryDelay } from './subject-filter';

export type BatchHandler = (messages: StreamMessage[]) => Promise<void>;
/**
 * `at`: when it was published (ms since the epoch); `trace`: the publisher's W3C trace context,
 * when it traced.
 */
export type LoggedMessage = { seq: number; subject: string; payload: unknown; msgId: string; at: number; trace?: Record<string, string> };

/** How long a consumer's new position may wait before it is written (one write covers them all). */
const ACK_PERSIST_DELAY_MS = 100;
/** The folder of the stream's directory holding each durable consumer's position. */
export const CONSUMERS_DIR = 'consumers';

/** What a durable consumer needs of the file event stream it reads. */
export interface ConsumedStream {
  readonly redeliveryDelayMs: number;
  readonly maxDeliveries: number;
  readonly isClosed: boolean;
  messagesAfter(seq: number, matches: (subject: string) => boolean, max: number): LoggedMessage[];
  waitForPublish(): { promise: Promise<void>; wake: () => void };
  deadLetterSubject(durable: string): string;
  publish(subject: string, payload: unknown, msgId: string): Promise<void>;
}

interface Attachment {
  handler: BatchHandler;
  maxBatch: number;
}

/**
 * One durable consumer: delivers its messages in order, a batch (of up to the handler's
 * `maxBatch`) at a time, to its attached handlers in turn.
 */
export class DurableConsumer {
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
    private readonly stream: ConsumedStream,
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
      const done = Promise.resolve().then(() =>
        consumeTraced(
          this.durable,
          batch.map((m) => m.trace),
          () => attachment.handler(delivered),
        ),
      );
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

/** A durable consumer's acknowledged position on disk (0 for a new consumer). */
export const readAckSeq = async (dir: string, durable: string): Promise<number> => {
  try {
    const state = JSON.parse(await readFile(join(dir, CONSUMERS_DIR, `${durable}.json`), 'utf8')) as { ackSeq?: unknown };
    return typeof state.ackSeq === 'number' ? state.ackSeq : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
};
