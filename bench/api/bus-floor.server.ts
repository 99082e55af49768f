/**
 * The bus floor of a distributed chat message, for `pnpm bench:api`: the crossings the product's
 * message path makes over NATS, JetStream, BullMQ and Redis (docs/architecture.md, "The message
 * path"), through the product's own adapters, with handlers that do nothing else. What it costs
 * per message (here and in the two servers) is a floor under the product's distributed figure that
 * no work in the services can go below. On `run` it drives `concurrency` messages at a time for
 * `seconds` and answers how many completed.
 *
 * Per message, as the product: the command request (gateway to conversation) publishes its two
 * events and enqueues the reply job; the job asks for retrieval (inference to search), publishes a
 * fragment and the finish on the gateway's reply channel, and records the reply (inference to
 * conversation), which publishes the third event and announces the read model; the analytics
 * consumer takes the events in batches. The driver waits for the finish, as the gateway does.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { defineMessage } from '@palaver/contracts';
import { createInfrastructure, handle, loadConfig, startService } from '@palaver/platform';
import { z } from 'zod';
import { driveFloor } from './floor-driver';

const Command = defineMessage(
  'floor.cmd.post.v1',
  z.object({ conversationId: z.string(), text: z.string() }),
  z.object({ ok: z.literal(true) }),
);
const Retrieve = defineMessage('floor.qry.retrieve.v1', z.object({ query: z.string() }), z.object({ chunks: z.array(z.string()) }));
const Complete = defineMessage(
  'floor.cmd.complete.v1',
  z.object({ conversationId: z.string(), text: z.string() }),
  z.object({ ok: z.literal(true) }),
);
const QUEUE = 'floor-inference';
const REPLIES = `floor.replies.${randomUUID()}`;

const config = loadConfig();
const infra = await createInfrastructure(config, { only: ['eventStream', 'jobs', 'pubsub'] });
const event = (conversationId: string, type: string) => ({ eventId: randomUUID(), conversationId, type, data: { text: 'x'.repeat(200) } });

@Controller()
class ConversationFloor {
  @MessagePattern(Command.subject)
  post(@Payload() raw: unknown) {
    return handle(Command, raw, async ({ conversationId, text }) => {
      // As the product: the job is queued first, the relay publishes the events after it.
      await infra.jobs.enqueue(QUEUE, 'reply', { conversationId, text });
      await Promise.all([
        infra.eventStream.publish('conversation.evt.floor-user', event(conversationId, 'user'), randomUUID()),
        infra.eventStream.publish('conversation.evt.floor-started', event(conversationId, 'started'), randomUUID()),
      ]);
      return { ok: true as const };
    });
  }

  @MessagePattern(Complete.subject)
  complete(@Payload() raw: unknown) {
    return handle(Complete, raw, async ({ conversationId }) => {
      await infra.eventStream.publish('conversation.evt.floor-completed', event(conversationId, 'completed'), randomUUID());
      await infra.pubsub.publish('floor.read-model', { conversationId });
      return { ok: true as const };
    });
  }
}

@Controller()
class SearchFloor {
  @MessagePattern(Retrieve.subject)
  retrieve(@Payload() raw: unknown) {
    return handle(Retrieve, raw, async () => ({ chunks: [] }));
  }
}

@Module({ controllers: [ConversationFloor] })
class ConversationFloorModule {}

@Module({ controllers: [SearchFloor] })
class SearchFloorModule {}

const services = [
  await startService('floor-conversation', { module: ConversationFloorModule }, infra),
  await startService('floor-search', { module: SearchFloorModule }, infra),
];
const analytics = await infra.eventStream.subscribeBatches(`floor_${randomUUID().slice(0, 8)}`, 'conversation.evt.>', async () => {}, 256);
const worker = await infra.jobs.process(
  QUEUE,
  async (job) => {
    const { conversationId, text } = job.data as { conversationId: string; text: string };
    await infra.services.send(Retrieve, { query: text });
    await infra.pubsub.publish(REPLIES, { conversationId, type: 'delta', delta: 'We are open.' });
    await infra.services.send(Complete, { conversationId, text: 'We are open.' });
    await infra.pubsub.publish(REPLIES, { conversationId, type: 'finish' });
  },
  { concurrency: 8 },
);

const floor = driveFloor(
  (conversationId) => infra.services.send(Command, { conversationId, text: 'What are your opening hours?' }),
  async () => {
    await unsubscribe();
    await worker.close();
    await analytics.stop();
    for (const service of services) await service.close();
    await infra.close();
  },
);
const unsubscribe = await infra.pubsub.subscribe(REPLIES, (message) => {
  const chunk = message as { conversationId: string; type: string };
  floor.fragment(chunk.conversationId, chunk.type);
});
floor.start();
