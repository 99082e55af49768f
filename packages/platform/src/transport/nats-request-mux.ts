import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';
import { dependencyUnavailable } from '../health/dependencies';
import type { NatsConnectionState } from './nats-connection-state';
import { NoRespondersError, RequestTimeoutError, ResponderLostError } from './service-requester';
import { WORKING_HEADER } from './working-heartbeat';

interface Pending {
  subject: string;
  resolve(message: Msg): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  timeoutMs: number;
  /** With a silence limit only: when the request times out, and when its responder was last heard. */
  deadline: number;
  silenceMs: number;
  heardAt: number;
}

/** The status NATS answers a request with when nothing subscribes to its subject. */
const NO_RESPONDERS = 503;

/**
 * Requests on one connection, every answer arriving on one wildcard inbox subscription (as the
 * client's own muxed `request` does). The client's version, once a request is answered, also
 * rejects its already settled promise with a fresh NatsError, whose stack trace cost about as much
 * as the rest of the request.
 *
 * While the connection is down a request fails at once (SERVICE_UNAVAILABLE) instead of waiting in
 * the client's buffer for the reconnect, and the requests waiting for an answer when it drops fail
 * then: their answers would go to an inbox the server no longer knows.
 */
export class NatsRequestMux {
  private readonly prefix = `${createInbox()}.`;
  private readonly pending = new Map<string, Pending>();
  private readonly subscription: Subscription;
  private readonly nc: NatsConnection;
  private readonly state: NatsConnectionState;
  private readonly stopFollowing: () => void;
  private nextToken = 0;

  constructor(lease: { nc: NatsConnection; state: NatsConnectionState }) {
    this.nc = lease.nc;
    this.state = lease.state;
    this.subscription = this.nc.subscribe(`${this.prefix}*`, {
      callback: (err, message) => (err ? this.failAll(err) : this.answer(message)),
    });
    this.stopFollowing = this.state.onDown(() => this.failAll(dependencyUnavailable('nats', 'connection lost, reconnecting')));
  }

  /**
   * The first answer; rejects with RequestTimeoutError after `timeoutMs`, at once when nothing
   * serves the subject or the connection is down, and with ResponderLostError when `silenceMs` is
   * given and the responder sends neither its answer nor a working heartbeat for that long.
   */
  request(subject: string, data: Uint8Array, timeoutMs: number, headers?: MsgHdrs, silenceMs = 0): Promise<Msg> {
    if (!this.state.up) return Promise.reject(dependencyUnavailable('nats'));
    this.nextToken += 1;
    const token = this.nextToken.toString(36);
    const watchSilence = silenceMs > 0 && silenceMs < timeoutMs;
    return new Promise((resolve, reject) => {
      const now = watchSilence ? Date.now() : 0;
      const pending: Pending = {
        subject,
        resolve,
        reject,
        timer: undefined as unknown as NodeJS.Timeout,
        timeoutMs,
        deadline: now + timeoutMs,
        silenceMs: watchSilence ? silenceMs : 0,
        heardAt: now,
      };
      pending.timer = setTimeout(
        () => (watchSilence ? this.checkSilence(token) : this.timeOut(token)),
        watchSilence ? silenceMs : timeoutMs,
      );
      this.pending.set(token, pending);
      try {
        this.nc.publish(subject, data, { reply: this.prefix + token, ...(headers ? { headers } : {}) });
      } catch (err) {
        clearTimeout(pending.timer);
        this.pending.delete(token);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  close(): void {
    this.stopFollowing();
    this.subscription.unsubscribe();
    this.failAll(new Error('the connection is closing'));
  }

  private timeOut(token: string): void {
    const pending = this.pending.get(token);
    if (!pending) return;
    this.pending.delete(token);
    pending.reject(new RequestTimeoutError(pending.subject, pending.timeoutMs));
  }

  /** The silence timer: the request timed out, its responder is lost, or the timer is set again. */
  private checkSilence(token: string): void {
    const pending = this.pending.get(token);
    if (!pending) return;
    const now = Date.now();
    const silent = now - pending.heardAt;
    if (now >= pending.deadline) {
      this.pending.delete(token);
      pending.reject(new RequestTimeoutError(pending.subject, pending.timeoutMs));
    } else if (silent >= pending.silenceMs) {
      this.pending.delete(token);
      pending.reject(new ResponderLostError(pending.subject, silent));
    } else {
      pending.timer = setTimeout(() => this.checkSilence(token), Math.min(pending.deadline - now, pending.silenceMs - silent));
    }
  }

  private answer(message: Msg): void {
    const token = message.subject.slice(this.prefix.length);
    const pending = this.pending.get(token);
    if (!pending) return; // timed out already
    if (message.data.length === 0) {
      const headers = message.headers;
      if (headers?.has(WORKING_HEADER)) {
        pending.heardAt = Date.now();
        return;
      }
      if (headers?.code === NO_RESPONDERS) {
        this.settle(token, pending);
        pending.reject(new NoRespondersError(pending.subject, `nothing on NATS answers ${pending.subject}`));
        return;
      }
    }
    this.settle(token, pending);
    pending.resolve(message);
  }

  private settle(token: string, pending: Pending): void {
    this.pending.delete(token);
    clearTimeout(pending.timer);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
  }
}
