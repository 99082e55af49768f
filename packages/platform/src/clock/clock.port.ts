export interface Clock {
  now(): Date;
  /**
   * Runs `run` once `ms` of this clock's time have passed (it does not hold the process open);
   * returns what cancels it.
   */
  after(ms: number, run: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A clock tests can move: its timers run when it is moved past them. */
export class ManualClock implements Clock {
  private readonly timers = new Set<{ at: number; run: () => void }>();

  constructor(private current: Date = new Date('2026-01-01T00:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  after(ms: number, run: () => void): () => void {
    const timer = { at: this.current.getTime() + ms, run };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }
  /** Timers set and not yet run nor cancelled. */
  get pendingTimers(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    this.set(new Date(this.current.getTime() + ms));
  }
  set(date: Date): void {
    this.current = new Date(date.getTime());
    const due = [...this.timers].filter((timer) => timer.at <= date.getTime()).sort((a, b) => a.at - b.at);
    for (const timer of due) {
      this.timers.delete(timer);
      timer.run();
    }
  }
}
