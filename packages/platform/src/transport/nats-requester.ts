import { type MsgHdrs, headers as natsHeaders } from 'nats';
import { dependencyUnavailable } from '../health/dependencies';
import { currentTraceContext } from '../tracing/spans';
import { NatsRequestMux } from './nats-request-mux';
import type { ServiceRequester } from './service-requester';
import type { NatsLease, SharedNatsConnection } from './shared-nats-connection';
import { utf8 } from './utf8';
import { RESPONDER_SILENCE_MS } from './working-heartbeat';

const decoder = new TextDecoder();

/** A request made before the process's first connection to NATS waits this long for it, at most. */
const FIRST_CONNECT_WAIT_MS = 2_000;

/** What Nest's NATS server answers a request with (one message: a promise's value and the end together). */
interface NestReply {
  response?: unknown;
  err?: unknown;
}

interface Connected {
  lease: NatsLease;
  mux: NatsRequestMux;
}

/**
 * Requests to Nest microservices over NATS, speaking Nest's packet format (`{pattern, data, id}`
 * out, `{response, err, id}` back), every reply coming to one inbox subscription of the
 * connection (NatsRequestMux). Nest's ClientNats instead subscribes and unsubscribes an inbox for
 * each request (two more protocol lines for the client to write and the server to route, and its
 * Observable and packet machinery around them): over a chat message's requests that was the
 * largest part of the bus's cost to the product and to the server.
 *
 * A request whose responder goes silent (no answer, no working heartbeat: see SubjectServerNats)
 * for RESPONDER_SILENCE_MS fails with ResponderLostError, whatever its own timeout.
 */
export class NatsServiceRequester implements ServiceRequester {
  private connection: Promise<Connected> | null = null;
  private ready: Connected | null = null;
  private nextId = 0;

  constructor(private readonly shared: SharedNatsConnection) {}

  async request(subject: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    const { mux } = this.ready ?? (await this.firstConnection(Math.min(timeoutMs, FIRST_CONNECT_WAIT_MS)));
    this.nextId += 1;
    const packet = utf8(JSON.stringify({ pattern: subject, data: payload, id: String(this.nextId) }));
    const reply = await mux.request(subject, packet, timeoutMs, traceHeaders(), RESPONDER_SILENCE_MS);
    const message = JSON.parse(decoder.decode(reply.data)) as NestReply;
    if (message.err !== undefined && message.err !== null) {
      throw new Error(`${subject}: ${typeof message.err === 'string' ? message.err : JSON.stringify(message.err)}`);
    }
    return message.response;
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    this.ready = null;
    if (!connection) return;
    const { lease, mux } = await connection;
    mux.close();
    await lease.release();
  }

  /**
   * Connects at the first request, as Nest's client did: a process that never calls another
   * service holds no connection. While NATS cannot be reached the client keeps trying in the
   * background; the requests meanwhile fail after `waitMs` rather than waiting for it.
   */
  private async firstConnection(waitMs: number): Promise<Connected> {
    this.connection ??= this.shared.lease().then((lease) => {
      const connected = { lease, mux: new NatsRequestMux(lease) };
      if (this.connection) this.ready = connected;
      return connected;
    });
    let timer: NodeJS.Timeout | undefined;
    const notYet = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(dependencyUnavailable('nats', 'not connected yet')), waitMs);
    });
    try {
      return await Promise.race([this.connection, notYet]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The caller's trace context in the request's headers (`traceparent`), when tracing. */
const traceHeaders = (): MsgHdrs | undefined => {
  const carrier = currentTraceContext();
  if (!carrier) return undefined;
  const hdrs = natsHeaders();
  for (const [key, value] of Object.entries(carrier)) hdrs.set(key, value);
  return hdrs;
};
