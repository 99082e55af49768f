import { connect, ErrorCode, type NatsConnection, NatsError } from 'nats';
import { natsConnectionOptions } from './nats-options';
import { RequestTimeoutError, type ServiceRequester } from './service-requester';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What Nest's NATS server answers a request with (one message: a promise's value and the end together). */
interface NestReply {
  response?: unknown;
  err?: unknown;
}

/**
 * Requests to Nest microservices over NATS, speaking Nest's packet format (`{pattern, data, id}`
 * out, `{response, err, id}` back) through the NATS client's own request: every reply comes to one
 * wildcard inbox subscription of the connection. Nest's ClientNats instead subscribes and
 * unsubscribes an inbox for each request (two more protocol lines for the client to write and the
 * server to route, and its Observable and packet machinery around them): over a chat message's
 * four requests that was the largest part of the bus's cost to the product and to the server.
 */
export class NatsServiceRequester implements ServiceRequester {
  private connection: Promise<NatsConnection> | null = null;
  private nextId = 0;

  constructor(private readonly url: string) {}

  async request(subject: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    const nc = await this.connected();
    this.nextId += 1;
    const packet = encoder.encode(JSON.stringify({ pattern: subject, data: payload, id: String(this.nextId) }));
    let reply: Uint8Array;
    try {
      reply = (await nc.request(subject, packet, { timeout: timeoutMs })).data;
    } catch (err) {
      throw describe(err, subject, timeoutMs);
    }
    const message = JSON.parse(decoder.decode(reply)) as NestReply;
    if (message.err !== undefined && message.err !== null) {
      throw new Error(`${subject}: ${typeof message.err === 'string' ? message.err : JSON.stringify(message.err)}`);
    }
    return message.response;
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    if (connection) await (await connection).close();
  }

  /** Connects at the first request, as Nest's client did: a process that never calls another service holds no connection. */
  private connected(): Promise<NatsConnection> {
    this.connection ??= connect({
      servers: this.url.split(',').map((s) => s.trim()),
      name: 'palaver-service-requests',
      ...natsConnectionOptions,
    });
    return this.connection;
  }
}

/** The NATS client's codes as the reasons ServiceClient reports. */
const describe = (err: unknown, subject: string, timeoutMs: number): Error => {
  if (err instanceof NatsError && err.code === ErrorCode.Timeout) return new RequestTimeoutError(subject, timeoutMs);
  if (err instanceof NatsError && err.code === ErrorCode.NoResponders) return new Error(`no instance serves ${subject}`);
  return err instanceof Error ? err : new Error(String(err));
};
