import { setImmediate as nextTurn } from 'node:timers/promises';
import { connect, type NatsConnection, StringCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { coalesceWrites } from './nats-write-coalescing';

const available = await infraAvailable('nats');
const codec = StringCodec();

/** Counts the client's socket writes (the transport's `send`, which nats.js calls once per flush). */
const countWrites = (nc: NatsConnection): { count: number } => {
  const transport = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol.transport;
  const send = transport.send.bind(transport);
  const writes = { count: 0 };
  transport.send = (frame) => {
    writes.count += 1;
    send(frame);
  };
  return writes;
};

/** Publishes `count` messages, one per microtask checkpoint, as callbacks that each publish once do. */
const publishAcrossMicrotasks = async (nc: NatsConnection, subject: string, count: number): Promise<void> => {
  for (let i = 0; i < count; i++) {
    nc.publish(subject, codec.encode(String(i)));
    await Promise.resolve();
  }
};

describe.skipIf(!available)(infraSuiteTitle('coalesceWrites', 'nats', available), () => {
  let receiver: NatsConnection;
  beforeAll(async () => {
    receiver = await connect({ servers: infraUrl('nats') });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const receive = (subject: string, count: number): Promise<string[]> => {
    const got: string[] = [];
    const sub = receiver.subscribe(subject, { max: count });
    return (async () => {
      for await (const m of sub) got.push(codec.decode(m.data));
      return got;
    })();
  };

  it('writes what one turn sends in two writes instead of one per microtask, in order', async () => {
    const plain = await connect({ servers: infraUrl('nats') });
    const coalesced = coalesceWrites(await connect({ servers: infraUrl('nats') }));
    try {
      await receiver.flush();
      const results: Record<string, { writes: number; received: string[] }> = {};
      for (const [name, nc] of [
        ['plain', plain],
        ['coalesced', coalesced],
      ] as const) {
        const subject = `test.coalesce.${name}.${Date.now()}`;
        const received = receive(subject, 20);
        await receiver.flush();
        const writes = countWrites(nc);
        await publishAcrossMicrotasks(nc, subject, 20);
        await nextTurn();
        results[name] = { writes: writes.count, received: await received };
      }
      const expected = Array.from({ length: 20 }, (_, i) => String(i));
      expect(results.plain).toEqual({ writes: 20, received: expected });
      // The first at once, the 19 after it at the end of the turn.
      expect(results.coalesced).toEqual({ writes: 2, received: expected });
    } finally {
      await Promise.all([plain.close(), coalesced.close()]);
    }
  });

  it('writes the first command of a turn at once, so a lone request waits for nothing', async () => {
    const nc = coalesceWrites(await connect({ servers: infraUrl('nats') }));
    try {
      const writes = countWrites(nc);
      nc.publish('test.coalesce.lone', codec.encode('x'));
      await Promise.resolve(); // one microtask checkpoint, no turn of the loop
      expect(writes.count).toBe(1);
      const sub = nc.subscribe('test.coalesce.echo', { max: 1 });
      void (async () => {
        for await (const m of sub) m.respond(m.data);
      })();
      await nc.flush();
      const answer = await receiver.request('test.coalesce.echo', codec.encode('ping'), { timeout: 2_000 });
      expect(codec.decode(answer.data)).toBe('ping');
    } finally {
      await nc.close();
    }
  });

  it('keeps request and reply working through a drain', async () => {
    const server = coalesceWrites(await connect({ servers: infraUrl('nats') }));
    const client = coalesceWrites(await connect({ servers: infraUrl('nats') }));
    const sub = server.subscribe('test.coalesce.double');
    void (async () => {
      for await (const m of sub) m.respond(codec.encode(String(2 * Number(codec.decode(m.data)))));
    })();
    await server.flush();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => client.request('test.coalesce.double', codec.encode(String(i)), { timeout: 2_000 })),
    );
    expect(answers.map((a) => Number(codec.decode(a.data)))).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i));
    await Promise.all([server.drain(), client.drain()]);
    expect(server.isClosed() && client.isClosed()).toBe(true);
  });
});
