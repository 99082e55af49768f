import type { NatsConnection } from 'nats';
import { utf8 } from './utf8';

/** What this module touches of nats.js's ProtocolHandler (nats 2.29, `lib/nats-base-client/protocol.js`). */
interface ProtocolInternals {
  outbound: { length(): number; size(): number; fill(buf: Uint8Array, ...payloads: unknown[]): void };
  pendingLimit: number;
  flushPending(): void;
  sendCommand(cmd: string | Uint8Array, ...payloads: unknown[]): void;
}

/**
 * nats.js writes its outbound buffer to the socket at the first microtask checkpoint after a
 * command, so under load every callback that publishes (each request, reply, ack) makes a
 * `write(2)` of its own, and wakes the server for it. Here the first write of a turn of the event
 * loop still goes out at once (a lone request waits for nothing), and whatever the callbacks after
 * it send in the same turn goes out together at the end of the turn (`setImmediate`). Order is
 * kept: the buffer is the client's own. The client still writes at once for a PING (`flush()`),
 * on (re)connect, and past its pending limit.
 */
export const coalesceWrites = (nc: NatsConnection): NatsConnection => {
  const protocol = (nc as unknown as { protocol?: ProtocolInternals }).protocol;
  if (!protocol || typeof protocol.sendCommand !== 'function' || !protocol.outbound) return nc;
  let queued = false;
  let turnStarted = false;
  const write = () => {
    queued = false;
    protocol.flushPending();
  };
  const endTurn = () => {
    turnStarted = false;
    if (queued) write();
  };
  protocol.sendCommand = (cmd, ...payloads) => {
    protocol.outbound.fill(typeof cmd === 'string' ? utf8(cmd) : cmd, ...payloads);
    if (protocol.outbound.size() >= protocol.pendingLimit) return protocol.flushPending();
    if (queued) return;
    queued = true;
    if (turnStarted) return; // endTurn writes it
    turnStarted = true;
    queueMicrotask(write);
    setImmediate(endTurn);
  };
  return nc;
};
