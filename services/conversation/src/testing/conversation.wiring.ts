import {
  type Clock,
  type Config,
  type DocumentStore,
  type EventStore,
  type EventStream,
  InProcessPubSub,
  type PubSub,
} from '@palaver/platform';
import { ConversationExecutor } from '../conversation.executor';
import { ConversationRepository } from '../conversation.repository';
import { OutboxRelay } from '../outbox/outbox.relay';
import { AgentFeed } from '../projections/agent-feed';
import { ConversationProjection } from '../projections/conversation.projection';
import { MessageProjection } from '../projections/message.projection';
import { ReadModel } from '../projections/read-model';
import { ReadModelBarrier } from '../projections/read-model.barrier';
import { ReadModelChanges } from '../projections/read-model.changes';
import { ReadModelProjector } from '../projections/read-model.projector';

/** The service's write side built by hand, so tests can put doubles in front of single ports. */
export const wire = (ports: {
  documents: DocumentStore;
  eventStore: EventStore;
  eventStream: EventStream;
  clock: Clock;
  config: Config;
  /** Where read-model changes are announced (a private in-process one when absent). */
  pubsub?: PubSub;
}) => {
  const readModel = new ReadModel(ports.documents);
  const pubsub = ports.pubsub ?? new InProcessPubSub();
  const projector = new ReadModelProjector(
    new ConversationProjection(readModel),
    new MessageProjection(readModel),
    new AgentFeed(ports.documents, ports.clock, pubsub),
    new ReadModelChanges(pubsub),
  );
  const relay = new OutboxRelay(ports.eventStore, ports.eventStream, ports.documents, projector);
  const repository = new ConversationRepository(ports.eventStore);
  const barrier = new ReadModelBarrier();
  const executor = new ConversationExecutor(repository, relay, projector, barrier, ports.clock, ports.config);
  return { readModel, projector, relay, repository, barrier, executor };
};
