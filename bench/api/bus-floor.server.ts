/**
 * The bus floor of a distributed message: the crossings the product's message path makes over
 * NATS, JetStream, BullMQ and Redis, through the product's own adapters, handlers doing nothing
 * else, so no work in the services can go below its cost. Per message, as the product: the command
 * queues the reply job and publishes two events; the job asks for retrieval, publishes a fragment
 * and the finish, and records the reply (a third event, the read model's announcement); a consumer
 * takes the events in batches. IPC: `run` (`concurrency` at a time for `seconds`), `sequential` (`count` one at a time).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { defineMessage } from '@palaver/contracts';
import { createInfrastructure, handle, loadConfig, startService } from '@palaver/platform';
import { z } from 'zod';
import { percentile } from '../common';

const Ok = z.object({ ok: z.literal(true) });
const Post = z.object({ conversationId: z.string(), text: z.string() });
const Command = defineMessage('floor.cmd.post.v1', Post, Ok);
const Retrieve = defineMessage('floor.qry.retrieve.v1', z.object({ query: z.string() }), z.object({ chunks: z.array(z.string()) }));
const Complete = defineMessage('floor.cmd.complete.v1', Post, Ok);
const QUEUE = 'floor-inference';
const REPLIES = `floor.replies.${randomUUID()}`;
const WARMUP = 20;

const infra = await createInfrastructure(loadConfig(), { only: ['eventStream', 'jobs', 'pubsub'] });
const event = (conversationId: string, type: string) => ({ eventId: randomUUID(), conversationId, type, data: { text: 'x'.repeat(200) } });
const publish = (conversationId: string, type: string) =>
  infra.eventStream.publish(`conversation.evt.floor-${type}`, event(conversationId, type), randomUUID());

@Controller()
class ConversationFloor {
  @MessagePattern(Command.subject)
  post(@Payload() raw: unknown) {
    return handle(Command, raw, async ({ conversationId, text }) => {
      // As the product: the job is queued first, the relay publishes the events after it.
      await infra.jobs.enqueue(QUEUE, 'reply', { conversationId, text });
      await Promise.all([publish(conversationId, 'user'), publish(conversationId, 'started')]);
      return { ok: true as const };
    });
  }

  @MessagePattern(Complete.subject)
  complete(@Payload() raw: unknown) {
    return handle(Complete, raw, async ({ conversationId }) => {
      await publish(conversationId, 'completed');
      await infra.pubsub.publish('floor.read-model', { conversationId });
      return { ok: true as const };
    });
  }

  @MessagePattern(Retrieve.subject)
  retrieve(@Payload() raw: unknown) {
    return handle(Retrieve, raw, async () => ({ chunks: [] }));
  }
}

@Module({ controllers: [ConversationFloor] })
class FloorModule {}

const service = await startService('floor', { module: FloorModule }, infra);
const analytics = await infra.eventStream.subscribeBatches(`floor_${randomUUID().slice(0, 8)}`, 'conversation.evt.>', async () => {}, 256);
const worker = await infra.jobs.process(
  QUEUE,
  async (job) => {
    const { conversationId, text } = job.data as { conversationId: string; text: string };
    await infra.services.send(Retrieve, { query: text });
    await infra.pubsub.publish(REPLIES, { conversationId, type: 'delta' });
    await infra.services.send(Complete, { conversationId, text: 'We are open.' });
    await infra.pubsub.publish(REPLIES, { conversationId, type: 'finish' });
  },
  { concurrency: 8 },
);

const waiting = new Map<string, { delta(): void; finish(): void }>();
const unsubscribe = await infra.pubsub.subscribe(REPLIES, (message) => {
  const { conversationId, type } = message as { conversationId: string; type: string };
  waiting.get(conversationId)?.[type === 'finish' ? 'finish' : 'delta']();
});

/** Resolves, once the finish has come, with the ms from the command to the first fragment. */
const oneMessage = async (conversationId: string): Promise<number> => {
  const started = performance.now();
  let firstFragment = Number.NaN;
  const finished = new Promise<void>((finish) =>
    waiting.set(conversationId, { delta: () => (firstFragment = performance.now() - started), finish }),
  );
  await infra.services.send(Command, { conversationId, text: 'What are your opening hours?' });
  await finished;
  return firstFragment;
};

/** `concurrency` conversations sending one message after another until `seconds` passed: how many completed, and per second. */
const run = async (concurrency: number, seconds: number) => {
  const started = performance.now();
  let answered = 0;
  const sender = async () => {
    for (const conversationId = randomUUID(); performance.now() - started < seconds * 1000; answered += 1) await oneMessage(conversationId);
  };
  await Promise.all(Array.from({ length: concurrency }, sender));
  return { answered, rps: (1000 * answered) / (performance.now() - started) };
};

/** `count` messages one at a time, after a warm-up: their first fragments' p50 and p99. */
const sequential = async (count: number) => {
  const took: number[] = [];
  for (const conversationId = randomUUID(); took.length < count + WARMUP; ) took.push(await oneMessage(conversationId));
  const samples = took.slice(WARMUP);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), count: samples.length };
};

process.on('message', (message: { cmd: string; concurrency: number; seconds: number; count: number }) => {
  if (message.cmd === 'run') void run(message.concurrency, message.seconds).then((ran) => process.send!(ran));
  else if (message.cmd === 'sequential') void sequential(message.count).then((firstFragment) => process.send!(firstFragment));
  else if (message.cmd === 'close') {
    void (async () => {
      await unsubscribe();
      await worker.close();
      await analytics.stop();
      await service.close();
      await infra.close();
    })().finally(() => process.exit(0));
  }
});
process.send!({ cmd: 'ready', url: '' });
