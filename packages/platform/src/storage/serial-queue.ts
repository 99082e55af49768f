/** Runs tasks one after another, in call order; a failing task does not stop the ones after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const result = this.tail.then(task, task);
    this.tail = result.then(this.settle, this.settle);
    return result;
  }

  /** No task is queued or running: work done now comes after every task queued so far. */
  get idle(): boolean {
    return this.queued === 0;
  }

  private readonly settle = (): void => {
    this.queued -= 1;
  };

  /** Resolves once every task queued so far has settled. */
  async drain(): Promise<void> {
    await this.tail;
  }
}
