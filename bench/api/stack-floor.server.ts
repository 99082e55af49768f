/**
 * The stack floor of a distributed chat message, for `pnpm bench:api`: the bus floor's crossings
 * (bus-floor.server.ts) made with nats.js, BullMQ and ioredis alone, at their defaults but for
 * nats.js's async stack traces (an Error built for every request, a quarter of this process's
 * CPU; the product turns them off too), with no Nest and none of the product's adapters. Beside the bus floor it tells what of that floor the
 * stack itself costs (its clients and its two servers) and what the product's adapters add.
 * Speaks the bus floor's IPC: `run` drives `concurrency` messages at a time for `seconds`,
 * `sequential` times `count` lone messages to their first fragment.
 */
import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { AckPolicy, connect, DeliverPolicy, headers, JSONCodec, type Msg, nanos } from 'nats';
import { driveFloor } from './floor-driver';

const natsUrl = process.env.NATS_URL!;
const redisUrl = process.env.REDIS_URL!;
const STREAM = `STACK_FLOOR_${randomUUID().slice(0, 8)}`;
const SUBJECTS = `${STREAM}.evt`;
const QUEUE = `stack-floor-${randomUUID().slice(0, 8)}`;
const REPLIES = `stack-floor.replies.${randomUUID()}`;

const nc = await connect({ servers: natsUrl, name: 'stack-floor', noAsyncTraces: true });
const json = JSONCodec<Record<string, unknown>>();
const js = nc.jetstream();
const jsm = await nc.jetstreamManager();
await jsm.streams.add({ name: STREAM, subjects: [`${SUBJECTS}.>`], duplicate_window: nanos(120_000) });
const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
const publisher = new Redis(redisUrl);
const subscriber = new Redis(redisUrl);
const queue = new Queue(QUEUE, { connection });

const event = (conversationId: string, type: string) => ({ eventId: randomUUID(), conversationId, type, data: { text: 'x'.repeat(200) } });
const publishEvent = (type: string, conversationId: string) => {
  const meta = headers();
  meta.set('Nats-Msg-Id', randomUUID());
  return js.publish(`${SUBJECTS}.${type}`, json.encode(event(conversationId, type)), { headers: meta });
};
const answer = (handler: (payload: Record<string, unknown>) => Promise<unknown>) => (error: Error | null, m: Msg) => {
  if (error) return;
  void handler(json.decode(m.data)).then((reply) => m.respond(json.encode({ ok: true, data: reply })));
};

// As the bus floor: the command queues the job, then publishes its two events.
nc.subscribe('stack-floor.cmd.post', {
  queue: 'conversation',
  callback: answer(async ({ conversationId, text }) => {
    await queue.add('reply', { conversationId, text }, { removeOnComplete: true, removeOnFail: true });
    await Promise.all([publishEvent('user', conversationId as string), publishEvent('started', conversationId as string)]);
  }),
});
nc.subscribe('stack-floor.cmd.complete', {
  queue: 'conversation',
  callback: answer(async ({ conversationId }) => {
    await publishEvent('completed', conversationId as string);
    await publisher.publish('stack-floor.read-model', JSON.stringify({ conversationId }));
  }),
});
nc.subscribe('stack-floor.qry.retrieve', { queue: 'search', callback: answer(async () => ({ chunks: [] })) });

await jsm.consumers.add(STREAM, {
  durable_name: 'analytics',
  ack_policy: AckPolicy.Explicit,
  deliver_policy: DeliverPolicy.All,
  max_ack_pending: 256,
});
const analytics = await (await js.consumers.get(STREAM, 'analytics')).consume({ max_messages: 256 });
void (async () => {
  for await (const m of analytics) {
    json.decode(m.data);
    m.ack();
  }
})();

const worker = new Worker(
  QUEUE,
  async (job) => {
    const { conversationId, text } = job.data as { conversationId: string; text: string };
    await nc.request('stack-floor.qry.retrieve', json.encode({ query: text }));
    await publisher.publish(REPLIES, JSON.stringify({ conversationId, type: 'delta', delta: 'We are open.' }));
    await nc.request('stack-floor.cmd.complete', json.encode({ conversationId, text: 'We are open.' }));
    await publisher.publish(REPLIES, JSON.stringify({ conversationId, type: 'finish' }));
  },
  { connection, concurrency: 8 },
);
await worker.waitUntilReady();

const floor = driveFloor(
  (conversationId) =>
    nc.request('stack-floor.cmd.post', json.encode({ conversationId, text: 'What are your opening hours?' }), { timeout: 5_000 }),
  async () => {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    analytics.stop();
    await jsm.streams.delete(STREAM);
    await nc.drain();
    for (const redis of [connection, publisher, subscriber]) redis.disconnect();
  },
);
await subscriber.subscribe(REPLIES);
subscriber.on('message', (_channel: string, raw: string) => {
  const chunk = JSON.parse(raw) as { conversationId: string; type: string };
  floor.fragment(chunk.conversationId, chunk.type);
});
floor.start();
