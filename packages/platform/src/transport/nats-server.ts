import { NatsContext, ServerNats } from '@nestjs/microservices';
import type { Msg } from 'nats';
import { isObservable } from 'rxjs';
import { coalesceWrites } from './nats-write-coalescing';
import { utf8 } from './utf8';

const decoder = new TextDecoder();

/** A request as NatsServiceRequester (and Nest's ClientNats) sends it. */
interface NestRequest {
  pattern: unknown;
  data: unknown;
  id: string;
}

const isNestRequest = (value: unknown): value is NestRequest =>
  typeof value === 'object' && value !== null && 'pattern' in value && typeof (value as NestRequest).id === 'string';

/**
 * Nest's NATS server for patterns that are plain subjects, as all of ours are (contracts). Nest
 * first tries `JSON.parse` on every incoming subject, in case a client sent an object pattern;
 * on a plain subject that throws, and building that SyntaxError costs more than the rest of the
 * routing. Object patterns (JSON text, starting with `{`) still go through Nest's own parsing.
 */
export class SubjectServerNats extends ServerNats {
  override getRouteFromPattern(pattern: string): string {
    return pattern.startsWith('{') ? super.getRouteFromPattern(pattern) : pattern;
  }

  /** Replies go out in one write per turn of the event loop (see coalesceWrites). */
  override async createNatsClient() {
    return coalesceWrites(await super.createNatsClient());
  }

  /**
   * A request whose handler answers a value (every `handle`-based handler does: an envelope) is
   * answered with that value at once, in the packet Nest's own path sends (`{response,
   * isDisposed: true, id}`, one message). Nest's path wraps the value in an Observable, a
   * catchError/finalize pipe and a queue flushed on the next tick: per request, that machinery
   * cost more than decoding and encoding the packets. Anything else (an event, no handler, no
   * reply subject, an Observable such as a thrown exception's) takes Nest's path unchanged.
   */
  override async handleMessage(channel: string, natsMsg: Msg): Promise<void> {
    const handler = natsMsg.reply ? this.getHandlerByPattern(channel) : null;
    if (!handler || handler.isEventHandler) return super.handleMessage(channel, natsMsg);
    let packet: unknown;
    try {
      packet = JSON.parse(decoder.decode(natsMsg.data));
    } catch {
      return super.handleMessage(channel, natsMsg);
    }
    if (!isNestRequest(packet)) return super.handleMessage(channel, natsMsg);
    const context = new NatsContext([natsMsg.subject, natsMsg.headers]);
    const result: unknown = await handler(packet.data, context);
    if (isObservable(result)) {
      this.send(result, this.getPublisher(natsMsg, packet.id, context));
      return;
    }
    natsMsg.respond(utf8(JSON.stringify({ response: result, isDisposed: true, id: packet.id })));
  }
}
