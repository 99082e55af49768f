import type { Clock, Config, DocumentStore, EventStore, EventStream } from '@palaver/platform';
import { ConversationExecutor } from '../conversation.executor';
import { ConversationRepository } from '../conversation.repository';
import { OutboxRelay } from '../outbox/outbox.relay';
import { AgentFeed } from '../projections/agent-feed';
import { ConversationProjection } from '../projections/conversation.projection';
import { MessageProjection } from '../projections/message.projection';
import { ReadModel } from '../projections/read-model';
import { ReadModelProjector } from '../projections/read-model.projector';

/** The service's write side built by hand, so tests can put doubles in front of single ports. */
export const wire = (ports: {
  documents: DocumentStore;
  eventStore: EventStore;
  eventStream: EventStream;
  clock: Clock;
  config: Config;
}) => {
  const readModel = new ReadModel(ports.documents);
  const projector = new ReadModelProjector(
    new ConversationProjection(readModel),
    new MessageProjection(readModel),
    new AgentFeed(ports.documents),
  );
  const relay = new OutboxRelay(ports.eventStore, ports.eventStream, ports.documents, projector);
  const repository = new ConversationRepository(ports.eventStore);
  const executor = new ConversationExecutor(repository, relay, projector, ports.clock, ports.config);
  return { readModel, projector, relay, repository, executor };
};
