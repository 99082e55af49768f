import { NatsContext, ServerNats } from '@nestjs/microservices';
import { context } from '@opentelemetry/api';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { isObservable } from 'rxjs';
import { contextFrom } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';
import type { NatsLease, SharedNatsConnection } from './shared-nats-connection';
import { utf8 } from './utf8';
import { WORKING_HEARTBEAT_MS, workingHeaders } from './working-heartbeat';

const decoder = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** A request as NatsServiceRequester (and Nest's ClientNats) sends it. */
interface NestRequest {
  pattern: unknown;
  data: unknown;
  id: string;
}

const isNestRequest = (value: unknown): value is NestRequest =>
  typeof value === 'object' && value !== null && 'pattern' in value && typeof (value as NestRequest).id === 'string';

/** What `close` touches of Nest's ServerNats (11.x, private there): the subscriptions it made, its connection. */
interface ServerNatsInternals {
  subscriptions: Subscription[];
  natsClient: NatsConnection | null;
}

/** How long a closing server waits, at most, for the server's confirmation and for the requests it took. */
const CLOSE_GRACE_MS = 10_000;

/**
 * Nest's NATS server for patterns that are plain subjects, as all of ours are (contracts). Nest
 * first tries `JSON.parse` on every incoming subject, in case a client sent an object pattern;
 * on a plain subject that throws, and building that SyntaxError costs more than the rest of the
 * routing. Object patterns (JSON text, starting with `{`) still go through Nest's own parsing.
 */
export class SubjectServerNats extends ServerNats {
  private lease: NatsLease | null = null;
  /** Requests being handled, and who waits for there to be none. */
  private handling = 0;
  private idle: (() => void) | null = null;
  /** Requests being handled that await an answer, each told every WORKING_HEARTBEAT_MS that it is still handled. */
  private readonly working = new Set<Msg>();
  private heartbeat: NodeJS.Timeout | null = null;
  /** The connection the heartbeats go out on (kept while `close` waits for the requests taken). */
  private heartbeatConnection: NatsConnection | null = null;

  override getRouteFromPattern(pattern: string): string {
    return pattern.startsWith('{') ? super.getRouteFromPattern(pattern) : pattern;
  }

  /** The server answers on the process's one connection (see SharedNatsConnection). */
  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly shared: SharedNatsConnection,
  ) {
    super(options);
  }

  /** The shared connection writes its replies once per turn of the event loop (see coalesceWrites). */
  override async createNatsClient() {
    this.lease = await this.shared.lease();
    this.heartbeatConnection = this.lease.nc;
    return this.lease.nc;
  }

  /**
   * Closes without losing a request. Nest's own close drops the connection at once: the requests
   * this instance had taken went unanswered, and the NATS server could still route new ones here
   * until it noticed, each waiting for its caller's timeout. Here each subscription is drained
   * first (its UNSUB confirmed by the server, so a queue group's other members take what comes
   * next), the requests already taken are answered and their answers flushed, then the shared
   * connection is given back; each wait bounded by CLOSE_GRACE_MS.
   */
  override async close(): Promise<void> {
    const lease = this.lease;
    this.lease = null;
    if (!lease) return super.close();
    const internals = this as unknown as ServerNatsInternals;
    if (!lease.nc.isClosed()) {
      await withinGrace(Promise.allSettled(internals.subscriptions.map((subscription) => subscription.drain())));
      if (this.handling > 0) await withinGrace(new Promise<void>((resolve) => (this.idle = resolve)));
      await withinGrace(lease.nc.flush().catch(() => undefined));
    }
    // The requests it had taken are answered (or given up on): no more heartbeats.
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.heartbeatConnection = null;
    // Nest's close closes the connection it holds, which the process's other users still need.
    for (const subscription of internals.subscriptions) subscription.unsubscribe();
    internals.natsClient = null;
    await super.close();
    await lease.release();
  }

  override async handleMessage(channel: string, natsMsg: Msg): Promise<void> {
    this.handling += 1;
    if (natsMsg.reply) this.startWorking(natsMsg);
    try {
      await this.answer(channel, natsMsg);
    } finally {
      this.working.delete(natsMsg);
      this.handling -= 1;
      if (this.handling === 0) this.idle?.();
    }
  }

  /**
   * Working heartbeats: while a request is handled, its requester hears every WORKING_HEARTBEAT_MS
   * that it is (NatsServiceRequester), so that it can tell a slow answer from one that will never
   * come because this process died or is stopped with the request. One timer for all of them, and
   * a request answered within a beat costs a Set entry only.
   */
  private startWorking(natsMsg: Msg): void {
    this.working.add(natsMsg);
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      const nc = this.heartbeatConnection;
      if (this.working.size === 0 || !nc || nc.isClosed()) {
        clearInterval(this.heartbeat!);
        this.heartbeat = null;
        return;
      }
      for (const msg of this.working) nc.publish(msg.reply!, EMPTY, { headers: workingHeaders() });
    }, WORKING_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * A request whose handler answers a value (every `handle`-based handler does: an envelope) is
   * answered with that value at once, in the packet Nest's own path sends (`{response,
   * isDisposed: true, id}`, one message). Nest's path wraps the value in an Observable, a
   * catchError/finalize pipe and a queue flushed on the next tick: per request, that machinery
   * cost more than decoding and encoding the packets. Anything else (an event, no handler, no
   * reply subject, an Observable such as a thrown exception's) takes Nest's path unchanged.
   */
  private async answer(channel: string, natsMsg: Msg): Promise<void> {
    const handler = natsMsg.reply ? this.getHandlerByPattern(channel) : null;
    if (!handler || handler.isEventHandler) return super.handleMessage(channel, natsMsg);
    let packet: unknown;
    try {
      packet = JSON.parse(decoder.decode(natsMsg.data));
    } catch {
      return super.handleMessage(channel, natsMsg);
    }
    if (!isNestRequest(packet)) return super.handleMessage(channel, natsMsg);
    const natsContext = new NatsContext([natsMsg.subject, natsMsg.headers]);
    const result: unknown = tracingEnabled()
      ? await context.with(contextFrom(traceCarrier(natsMsg)), () => handler(packet.data, natsContext))
      : await handler(packet.data, natsContext);
    if (isObservable(result)) {
      this.send(result, this.getPublisher(natsMsg, packet.id, natsContext));
      return;
    }
    natsMsg.respond(utf8(JSON.stringify({ response: result, isDisposed: true, id: packet.id })));
  }
}

/** The W3C trace context a request's headers carry (see NatsServiceRequester). */
const traceCarrier = (msg: Msg): Record<string, string | undefined> | undefined => {
  const traceparent = msg.headers?.get('traceparent');
  return traceparent ? { traceparent, tracestate: msg.headers?.get('tracestate') || undefined } : undefined;
};

const withinGrace = async (work: Promise<unknown>): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
  clearTimeout(timer);
};
