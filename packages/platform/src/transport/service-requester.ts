/** How ServiceClient reaches the services: a request on a subject, answered once or rejected. */
export interface ServiceRequester {
  /**
   * The handler's answer; rejects with RequestTimeoutError after `timeoutMs`, with
   * ResponderLostError when the instance that took the request stops saying it is working on it
   * (it died or hangs), or when nothing can serve the subject.
   */
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

/**
 * The request went unanswered and unacknowledged for longer than a live responder stays silent
 * (see WORKING_HEARTBEAT_MS): the instance that took it died, or was stopped, before answering.
 * Whether it did the work before that is unknown.
 */
export class ResponderLostError extends Error {
  constructor(
    readonly subject: string,
    silentMs: number,
  ) {
    super(`${subject}: the instance that took the request went silent for ${silentMs} ms (died or stopped)`);
    this.name = 'ResponderLostError';
  }
}
