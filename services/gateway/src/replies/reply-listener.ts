import { TokenChunk } from '@palaver/contracts';
import { logger } from '@palaver/platform';

export type TerminalChunk = Exclude<TokenChunk, { type: 'delta' }>;

/**
 * The fragments of one reply, in order, until its terminal chunk, as its gateway's `ReplyHub`
 * routes them here. Listen before the work starts: pub/sub keeps nothing for late listeners. A
 * reply that stays silent longer than `idleTimeoutMs` ends with an error chunk, after `onTimeout`
 * recorded the failure: the visitor is told the reply failed only once nothing can store it as
 * complete any more.
 */
export class ReplyListener {
  private readonly buffered: TokenChunk[] = [];
  private wake: (() => void) | null = null;
  private partialText = '';

  /** `detach`: stops the routing of fragments here (called once, on close). */
  constructor(
    private readonly idleTimeoutMs: number,
    private readonly onTimeout: (partialText: string) => Promise<unknown>,
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

  push(raw: unknown): void {
    const parsed = TokenChunk.safeParse(raw);
    this.buffered.push(parsed.success ? parsed.data : { type: 'error', code: 'INTERNAL_SERVER_ERROR', error: 'malformed reply fragment' });
    this.wake?.();
  }

  async *chunks(): AsyncGenerator<TokenChunk> {
    try {
      while (true) {
        const next = this.buffered.shift() ?? (await this.nextOrTimeout());
        if (next.type === 'delta') this.partialText += next.delta;
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
        this.onTimeout(this.partialText).then(
          () => resolve(timedOut),
          (err: unknown) => {
            logger.error({ err }, 'could not record a timed-out reply as failed');
            resolve(timedOut);
          },
        );
      }, this.idleTimeoutMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve(this.buffered.shift()!);
      };
    });
  }

  async close(): Promise<void> {
    const detach = this.detach;
    this.detach = null;
    this.wake = null;
    detach?.();
  }
}
