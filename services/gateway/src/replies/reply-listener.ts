import { TokenChunk } from '@palaver/contracts';
import { logger } from '@palaver/platform';

export type TerminalChunk = Exclude<TokenChunk, { type: 'delta' }>;

/** Why a reply is given up here: it stayed silent, or its worker died (an `interrupted` error chunk). */
export type AbandonReason = 'timed-out' | 'interrupted';

/**
 * The fragments of one reply, in order, until its terminal chunk, as its gateway's `ReplyHub`
 * routes them here. Listen before the work starts: pub/sub keeps nothing for late listeners. A
 * reply that stays silent longer than `idleTimeoutMs`, or whose worker died (an error chunk
 * marked `interrupted`), ends with an error chunk after `onAbandon` recorded the failure with the
 * text relayed so far: the visitor is told the reply failed only once it is stored so, with what
 * they saw.
 */
export class ReplyListener {
  private readonly buffered: TokenChunk[] = [];
  private wake: (() => void) | null = null;
  private partialText = '';
  private fragmentArrived: () => void = () => undefined;
  /** Resolves when the first fragment arrives. */
  private readonly arrived = new Promise<void>((resolve) => (this.fragmentArrived = resolve));

  /** `detach`: stops the routing of fragments here (called once, on close). */
  constructor(
    private readonly idleTimeoutMs: number,
    private readonly onAbandon: (partialText: string, reason: AbandonReason) => Promise<unknown>,
    private detach: (() => void) | null,
  ) {}

  /** Runs what starts the reply; if that fails, stops listening and throws its error. */
  async startOrClose<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  /**
   * As `startOrClose`, but settles with STARTED_REPLY as soon as the reply's first fragment arrives,
   * if that is before the answer: a fragment proves the reply was started, and the answer may still
   * wait for work the reply does not (the conversation's read models). An answer that then fails is
   * only logged: the reply is under way.
   */
  async startedOrAnswered<T>(start: () => Promise<T>): Promise<T | typeof STARTED_REPLY> {
    const answered = new Promise<T>((resolve) => resolve(start()));
    // FIRST is no closure of this call: the reaction stays on `arrived` while the reply streams
    // (when the answer came first), and a closure made here would hold this call's context
    // (the command, its answer) for as long.
    const fragmentFirst = await Promise.race([answered.then(NOT_FIRST, NOT_FIRST), this.arrived.then(FIRST)]);
    if (!fragmentFirst) return this.startOrClose(() => answered);
    answered.catch((err: unknown) => logger.warn({ err }, 'a reply started, but the request that started it failed'));
    return STARTED_REPLY;
  }

  push(raw: unknown): void {
    const parsed = TokenChunk.safeParse(raw);
    this.buffered.push(parsed.success ? parsed.data : { type: 'error', code: 'INTERNAL_SERVER_ERROR', error: 'malformed reply fragment' });
    this.fragmentArrived();
    this.wake?.();
  }

  async *chunks(): AsyncGenerator<TokenChunk> {
    try {
      while (true) {
        const next = this.buffered.shift() ?? (await this.nextOrTimeout());
        if (next.type === 'delta') this.partialText += next.delta;
        if (next.type === 'error' && next.interrupted) {
          await this.abandon('interrupted');
          const { interrupted: _, ...told } = next;
          yield told;
          return;
        }
        yield next;
        if (next.type !== 'delta') return;
      }
    } finally {
      await this.close();
    }
  }

  private nextOrTimeout(): Promise<TokenChunk> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        const timedOut: TokenChunk = { type: 'error', code: 'SERVICE_UNAVAILABLE', error: 'the reply timed out' };
        void this.abandon('timed-out').then(() => resolve(timedOut));
      }, this.idleTimeoutMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve(this.buffered.shift()!);
      };
    });
  }

  /** Records the failure with the text relayed so far; never throws (the visitor is told either way). */
  private async abandon(reason: AbandonReason): Promise<void> {
    try {
      await this.onAbandon(this.partialText, reason);
    } catch (err) {
      logger.error({ err, reason }, 'could not record an abandoned reply as failed');
    }
  }

  async close(): Promise<void> {
    const detach = this.detach;
    this.detach = null;
    this.wake = null;
    detach?.();
  }
}

const NOT_FIRST = (): boolean => false;
const FIRST = (): boolean => true;

/** What a reply's first fragment says of the request that started it (see `startedOrAnswered`). */
export const STARTED_REPLY = { kind: 'reply' } as const;
