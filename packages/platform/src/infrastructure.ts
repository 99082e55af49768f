import type { Provider } from '@nestjs/common';
import type { ChatModel } from './chat-model/chat-model.port';
import type { Clock } from './clock/clock.port';
import type { Config } from './config/config';
import type { DocumentStore } from './document-store/document-store.port';
import type { Embedder } from './embedder/embedder.port';
import type { EventStore } from './event-store/event-store.port';
import type { EventStream } from './event-stream/event-stream.port';
import type { JobQueue } from './job-queue/job-queue.port';
import type { KeyStore } from './key-store/key-store.port';
import type { KeyValueStore } from './kv/kv.port';
import type { PubSub } from './pubsub/pubsub.port';
import type { ReplyLog } from './reply-log/reply-log.port';
import { Ports } from './tokens';
import type { ServiceClient } from './transport/service-client';
import type { ServiceTransport } from './transport/transport';
import type { VectorIndex } from './vector-index/vector-index.port';

/** Every port, each bound to its embedded or real adapter (see `createInfrastructure`). */
export interface Infrastructure {
  config: Config;
  clock: Clock;
  documents: DocumentStore;
  eventStore: EventStore;
  eventStream: EventStream;
  jobs: JobQueue;
  pubsub: PubSub;
  /** Each reply's fragments, replayable (resumed streams, stops). */
  replyLog: ReplyLog;
  kv: KeyValueStore;
  /** Data keys of personal fields (crypto-shredding): MongoDB, or a file in DATA_DIR. */
  keys: KeyStore;
  vectors: VectorIndex;
  embedder: Embedder;
  chatModel: ChatModel;
  transport: ServiceTransport;
  /** A client of the service transport, for calling other services. */
  services: ServiceClient;
  close(): Promise<void>;
}

export type PortName = Exclude<keyof typeof Ports, never>;

/** Nest providers for just the ports a module uses. */
export const portProviders = (infra: Infrastructure, ...names: PortName[]): Provider[] =>
  names.map((name) => ({ provide: Ports[name], useValue: infra[name] }));
