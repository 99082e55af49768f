import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';

/** The socket ioredis writes its commands to (`Redis#stream`, replaced on each reconnect). */
interface RedisInternals {
  stream?: Socket;
}

const coalesced = new WeakSet<Socket>();

/**
 * ioredis writes each command to its socket as it is sent, so under load every callback that
 * sends one (a job added or finished, a session stored) makes a `write(2)` of its own,
 * and wakes the server for it. Here the first write of a turn of the event loop still goes out at
 * once (a lone command waits for nothing), and whatever the callbacks after it write in the same
 * turn is corked and goes out together at the end of the turn (`setImmediate`), in order: the
 * socket's own buffer keeps it. Only the socket's writes change; what ioredis sends, and when it
 * considers a command written, stays the same. Each new socket (a reconnect) is coalesced too.
 */
export const coalesceRedisWrites = (redis: Redis): Redis => {
  const coalesce = () => {
    const stream = (redis as unknown as RedisInternals).stream;
    if (!stream || coalesced.has(stream)) return;
    coalesced.add(stream);
    const write = stream.write;
    let turnStarted = false;
    let corked = false;
    const endTurn = () => {
      turnStarted = false;
      if (corked) {
        corked = false;
        stream.uncork();
      }
    };
    stream.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
      if (!turnStarted) {
        turnStarted = true;
        setImmediate(endTurn);
      } else if (!corked) {
        corked = true;
        stream.cork();
      }
      return write.apply(this, args);
    } as Socket['write'];
  };
  coalesce();
  redis.on('connect', coalesce);
  return redis;
};
