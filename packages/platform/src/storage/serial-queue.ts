/** Runs tasks one after another, in call order; a failing task does not stop the ones after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  async drain(): Promise<void> {
    await this.tail;
  }
}
