import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';
import { NoRespondersError, RequestTimeoutError } from './service-requester';

interface Pending {
  subject: string;
  resolve(message: Msg): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The status NATS answers a request with when nothing subscribes to its subject. */
const NO_RESPONDERS = 503;

/**
 * Requests on one connection, every answer arriving on one wildcard inbox subscription (as the
 * client's own muxed `request` does). The client's version, once a request is answered, also
 * rejects its already settled promise with a fresh NatsError, whose stack trace cost about as much
 * as the rest of the request.
 */
export class NatsRequestMux {
  private readonly prefix = `${createInbox()}.`;
  private readonly pending = new Map<string, Pending>();
  private readonly subscription: Subscription;
  private nextToken = 0;

  constructor(private readonly nc: NatsConnection) {
    this.subscription = nc.subscribe(`${this.prefix}*`, {
      callback: (err, message) => (err ? this.failAll(err) : this.answer(message)),
    });
  }

  /** The first answer; rejects with RequestTimeoutError after `timeoutMs`, or at once when nothing serves the subject. */
  request(subject: string, data: Uint8Array, timeoutMs: number, headers?: MsgHdrs): Promise<Msg> {
    this.nextToken += 1;
    const token = this.nextToken.toString(36);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new RequestTimeoutError(subject, timeoutMs));
      }, timeoutMs);
      this.pending.set(token, { subject, resolve, reject, timer });
      try {
        this.nc.publish(subject, data, { reply: this.prefix + token, ...(headers ? { headers } : {}) });
      } catch (err) {
        clearTimeout(timer);
        this.pending.delete(token);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  close(): void {
    this.subscription.unsubscribe();
    this.failAll(new Error('the connection is closing'));
  }

  private answer(message: Msg): void {
    const token = message.subject.slice(this.prefix.length);
    const pending = this.pending.get(token);
    if (!pending) return; // timed out already
    this.pending.delete(token);
    clearTimeout(pending.timer);
    if (message.data.length === 0 && message.headers?.code === NO_RESPONDERS)
      pending.reject(new NoRespondersError(pending.subject, `nothing on NATS answers ${pending.subject}`));
    else pending.resolve(message);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
  }
}
