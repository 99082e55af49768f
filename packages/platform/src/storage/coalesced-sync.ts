/**
 * Shares one `sync` among the callers of a short window, as a checkpoint: the first call opens a
 * round whose `sync` runs `delayMs` later, and every call made before it runs resolves with it (a
 * call made while it runs waits for the next round, so its writes are in that one). Callers that
 * must not go on before their writes are on disk, but need not go on at once, then pay for one
 * fsync per window instead of one each.
 */
export class CoalescedSync {
  private round: Promise<void> | null = null;

  constructor(
    private readonly sync: () => Promise<void>,
    private readonly delayMs: number,
  ) {}

  /** Resolves once a `sync` that started after this call has finished (rejects with its error). */
  synced(): Promise<void> {
    this.round ??= new Promise<void>((resolve) => setTimeout(resolve, this.delayMs)).then(() => {
      this.round = null;
      return this.sync();
    });
    return this.round;
  }
}
