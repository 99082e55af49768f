import { NatsRequestMux } from './nats-request-mux';
import type { ServiceRequester } from './service-requester';
import type { NatsLease, SharedNatsConnection } from './shared-nats-connection';
import { utf8 } from './utf8';

const decoder = new TextDecoder();

/** What Nest's NATS server answers a request with (one message: a promise's value and the end together). */
interface NestReply {
  response?: unknown;
  err?: unknown;
}

/**
 * Requests to Nest microservices over NATS, speaking Nest's packet format (`{pattern, data, id}`
 * out, `{response, err, id}` back), every reply coming to one inbox subscription of the
 * connection (NatsRequestMux). Nest's ClientNats instead subscribes and unsubscribes an inbox for
 * each request (two more protocol lines for the client to write and the server to route, and its
 * Observable and packet machinery around them): over a chat message's requests that was the
 * largest part of the bus's cost to the product and to the server.
 */
export class NatsServiceRequester implements ServiceRequester {
  private connection: Promise<{ lease: NatsLease; mux: NatsRequestMux }> | null = null;
  private nextId = 0;

  constructor(private readonly shared: SharedNatsConnection) {}

  async request(subject: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    const { mux } = await this.connected();
    this.nextId += 1;
    const packet = utf8(JSON.stringify({ pattern: subject, data: payload, id: String(this.nextId) }));
    const reply = await mux.request(subject, packet, timeoutMs);
    const message = JSON.parse(decoder.decode(reply.data)) as NestReply;
    if (message.err !== undefined && message.err !== null) {
      throw new Error(`${subject}: ${typeof message.err === 'string' ? message.err : JSON.stringify(message.err)}`);
    }
    return message.response;
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    if (!connection) return;
    const { lease, mux } = await connection;
    mux.close();
    await lease.release();
  }

  /** Connects at the first request, as Nest's client did: a process that never calls another service holds no connection. */
  private connected(): Promise<{ lease: NatsLease; mux: NatsRequestMux }> {
    this.connection ??= this.shared.lease().then((lease) => ({ lease, mux: new NatsRequestMux(lease.nc) }));
    return this.connection;
  }
}
