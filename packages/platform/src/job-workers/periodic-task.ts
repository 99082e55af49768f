/**
 * Work a service does every so often beside its queue (a schedule, a recovery sweep): one run at
 * a time (a call while one is under way shares it), on a timer that never holds the process up,
 * and waited for when the service stops. A failed run is handed to `failed` (logged by the
 * owner); the next interval tries again.
 */
export class PeriodicTask<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly options: {
      run: () => Promise<T>;
      everyMs: number;
      failed: (err: unknown) => void;
    },
  ) {}

  /** Runs the task, or joins the run under way; rejects with its failure. */
  run(): Promise<T> {
    this.running ??= this.options.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Runs it as `run` does, handing a failure to `failed` instead of rejecting. */
  async runQuietly(): Promise<T | undefined> {
    try {
      return await this.run();
    } catch (err) {
      this.options.failed(err);
      return undefined;
    }
  }

  /** Runs it now and then every `everyMs`; resolves once the first run is over. */
  start(): Promise<T | undefined> {
    this.timer = setInterval(() => void this.runQuietly(), this.options.everyMs);
    this.timer.unref();
    return this.runQuietly();
  }

  /** Stops the timer and waits for the run under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
