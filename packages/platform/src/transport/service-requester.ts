/** How ServiceClient reaches the services: a request on a subject, answered once or rejected. */
export interface ServiceRequester {
  /** The handler's answer; rejects with RequestTimeoutError after `timeoutMs`, or when nothing can serve the subject. */
  request(subject: string, payload: unknown, timeoutMs: number): Promise<unknown>;
  close(): void | Promise<void>;
}

export class RequestTimeoutError extends Error {
  constructor(subject: string, timeoutMs: number) {
    super(`${subject} timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

/** Nothing serves the subject: no handler registered on the in-process bus, no subscriber on NATS. */
export class NoRespondersError extends Error {
  constructor(
    readonly subject: string,
    message = `no service answers ${subject}`,
  ) {
    super(message);
    this.name = 'NoRespondersError';
  }
}
