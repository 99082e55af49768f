import {
  type Clock,
  type Config,
  type DocumentStore,
  type EventStore,
  type EventStream,
  InMemoryKeyStore,
  InProcessPubSub,
  type KeyStore,
  type PubSub,
} from '@palaver/platform';
import { OutboxRelay } from '../outbox/outbox.relay';
import { ConversationProjection } from '../projections/conversation.projection';
import { MessageProjection } from '../projections/message.projection';
import { ReadModelBarrier } from '../projections/read-model.barrier';
import { ReadModelChanges } from '../projections/read-model.changes';
import { ReadModelProjector } from '../projections/read-model.projector';
import { AgentFeedRepository } from '../repositories/agent-feed.repository';
import { ConversationRepository } from '../repositories/conversation.repository';
import { ConversationCipher } from '../repositories/conversation-cipher';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { MessageReadRepository } from '../repositories/message-read.repository';
import { ReadModel } from '../repositories/read-model';
import { ConversationExecutor } from '../services/conversation.executor';

/** The service's write side built by hand, so tests can put doubles in front of single ports. */
export const wire = (ports: {
  documents: DocumentStore;
  eventStore: EventStore;
  eventStream: EventStream;
  clock: Clock;
  config: Config;
  /** Where read-model changes are announced (a private in-process one when absent). */
  pubsub?: PubSub;
  /** The data keys (in memory when absent). */
  keys?: KeyStore;
}) => {
  const cipher = new ConversationCipher(ports.keys ?? new InMemoryKeyStore(), ports.clock);
  const readModel = new ReadModel(ports.documents);
  const pubsub = ports.pubsub ?? new InProcessPubSub();
  const projector = new ReadModelProjector(
    new ConversationProjection(readModel),
    new MessageProjection(readModel),
    new AgentFeedRepository(ports.documents, ports.clock, pubsub),
    new ReadModelChanges(pubsub),
  );
  const relay = new OutboxRelay(ports.eventStore, ports.eventStream, ports.documents, projector, cipher);
  const repository = new ConversationRepository(ports.eventStore, cipher);
  const barrier = new ReadModelBarrier();
  const executor = new ConversationExecutor(repository, relay, projector, barrier, ports.clock, ports.config);
  const conversations = new ConversationReadRepository(readModel);
  const messages = new MessageReadRepository(readModel);
  return { readModel, conversations, messages, projector, relay, repository, barrier, executor, cipher };
};
