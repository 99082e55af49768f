import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ChatModel } from './chat-model/chat-model.port';
import { LocalResponder } from './chat-model/local.chat-model';
import { OpenAiChatModel } from './chat-model/openai.chat-model';
import { TracedChatModel } from './chat-model/traced.chat-model';
import { type Clock, systemClock } from './clock/clock.port';
import type { Config } from './config/config';
import type { DocumentStore } from './document-store/document-store.port';
import { EmbeddedDocumentStore } from './document-store/embedded.document-store';
import type { Embedder } from './embedder/embedder.port';
import { LocalEmbedder } from './embedder/local.embedder';
import { OpenAiEmbedder } from './embedder/openai.embedder';
import type { EventStore } from './event-store/event-store.port';
import { FileEventStore } from './event-store/file.event-store';
import type { EventStream } from './event-stream/event-stream.port';
import { FileEventStream } from './event-stream/file.event-stream';
import { type HeapWatchOptions, watchHeap } from './health/heap-watch';
import type { Infrastructure, PortName } from './infrastructure';
import { InProcessJobQueue } from './job-queue/in-process.job-queue';
import type { JobQueue } from './job-queue/job-queue.port';
import { FileKeyStore } from './key-store/file.key-store';
import type { KeyStore } from './key-store/key-store.port';
import { InProcessKeyValueStore } from './kv/in-process.kv';
import type { KeyValueStore } from './kv/kv.port';
import { InProcessPubSub } from './pubsub/in-process.pubsub';
import type { PubSub } from './pubsub/pubsub.port';
import { InProcessReplyLog } from './reply-log/in-process.reply-log';
import type { ReplyLog } from './reply-log/reply-log.port';
import { type DataDirLock, lockDataDir } from './storage/data-dir.lock';
import { ServiceClient } from './transport/service-client';
import { SharedNatsConnection } from './transport/shared-nats-connection';
import { inProcessTransport, natsTransport } from './transport/transport';
import { EmbeddedVectorIndex } from './vector-index/embedded.vector-index';
import type { VectorIndex } from './vector-index/vector-index.port';

type Closable = { close(): Promise<void> };

export interface InfrastructureOptions {
  clock?: Clock;
  /** Open only these ports (a standalone service process); the others throw when used. */
  only?: PortName[];
  /** How the heap is watched while embedded stores hold their data in it (see watchHeap). */
  heapWatch?: HeapWatchOptions;
}

/**
 * Binds every port to its adapter: the real engine when its URL is configured, the embedded
 * adapter (in this process, persisted in DATA_DIR) otherwise. Embedded stores belong to one
 * process: run every service in it (`pnpm start`), or configure the real engines.
 */
export const createInfrastructure = async (config: Config, options: InfrastructureOptions = {}): Promise<Infrastructure> => {
  const dataDir = resolve(config.DATA_DIR);
  const wanted = (port: PortName): boolean => !options.only || options.only.includes(port);
  const opened: Closable[] = [];
  const open = async <T extends Closable>(port: PortName, make: () => Promise<T> | T): Promise<T> => {
    if (!wanted(port)) return notOpened(port);
    const adapter = await make();
    opened.push(adapter);
    return adapter;
  };
  // The first embedded store opened takes the data folder for this process (see lockDataDir).
  let lock: DataDirLock | null = null;
  const dir = async (name: string): Promise<string> => {
    if (!lock) {
      await mkdir(dataDir, { recursive: true });
      lock = await lockDataDir(dataDir);
    }
    const path = join(dataDir, name);
    await mkdir(path, { recursive: true });
    return path;
  };
  const embeddedStoresOpened = (): boolean => lock !== null;
  /** The MongoDB adapter when MONGODB_URL is set, else the embedded one in its folder of DATA_DIR. */
  const mongoOrEmbedded = <T extends Closable>(
    port: PortName,
    mongo: (url: string, db: string) => Promise<T>,
    embedded: { folder: string; open: (dir: string) => Promise<T> },
  ): Promise<T> =>
    open(port, async () => (config.MONGODB_URL ? mongo(config.MONGODB_URL, config.MONGODB_DB) : embedded.open(await dir(embedded.folder))));
  const clock = options.clock ?? systemClock;
  const releaseAll = async (): Promise<void> => {
    for (const adapter of opened.reverse()) await adapter.close();
    await lock?.release();
  };

  // Every NATS adapter of this process on one connection (see SharedNatsConnection).
  const nats = config.NATS_URL ? new SharedNatsConnection(config.NATS_URL) : null;

  try {
    const documents = await mongoOrEmbedded<DocumentStore>(
      'documents',
      async (url, db) => (await import('./document-store/mongo.document-store')).MongoDocumentStore.connect(url, db),
      { folder: 'documents', open: (path) => EmbeddedDocumentStore.open(path) },
    );
    const eventStore = await mongoOrEmbedded<EventStore>(
      'eventStore',
      async (url, db) => (await import('./event-store/mongo.event-store')).MongoEventStore.connect(url, db),
      { folder: 'events', open: (path) => FileEventStore.open(path) },
    );
    const eventStream: EventStream = await open('eventStream', async () =>
      nats
        ? (await import('./event-stream/jetstream.event-stream')).JetStreamEventStream.connect(nats)
        : FileEventStream.open(await dir('stream')),
    );
    const jobs: JobQueue = await open('jobs', async () =>
      config.REDIS_URL
        ? new (await import('./job-queue/bullmq.job-queue')).BullMqJobQueue(config.REDIS_URL, {
            lockDurationMs: config.JOB_STALL_TIMEOUT_MS,
          })
        : new InProcessJobQueue(),
    );
    const pubsub: PubSub = await open('pubsub', async () =>
      config.REDIS_URL ? new (await import('./pubsub/redis.pubsub')).RedisPubSub(config.REDIS_URL) : new InProcessPubSub(),
    );
    const replyLog: ReplyLog = await open('replyLog', async () =>
      config.REDIS_URL
        ? new (await import('./reply-log/redis.reply-log')).RedisReplyLog(config.REDIS_URL, config.REPLY_LOG_TTL_MS)
        : new InProcessReplyLog(config.REPLY_LOG_TTL_MS),
    );
    const kv: KeyValueStore = await open('kv', async () =>
      config.REDIS_URL
        ? new (await import('./kv/redis.kv')).RedisKeyValueStore(config.REDIS_URL)
        : InProcessKeyValueStore.open(await dir('kv'), clock),
    );
    const keys = await mongoOrEmbedded<KeyStore>(
      'keys',
      async (url, db) => (await import('./key-store/mongo.key-store')).MongoKeyStore.connect(url, db),
      { folder: 'keys', open: (path) => FileKeyStore.open(path) },
    );
    const vectors: VectorIndex = await open('vectors', async () =>
      config.QDRANT_URL
        ? new (await import('./vector-index/qdrant.vector-index')).QdrantVectorIndex(config.QDRANT_URL, config.QDRANT_API_KEY)
        : EmbeddedVectorIndex.open(await dir('vectors')),
    );
    const embedder: Embedder = wanted('embedder') ? chooseEmbedder(config) : notOpened('embedder');
    const chatModel: ChatModel = wanted('chatModel') ? new TracedChatModel(chooseChatModel(config)) : notOpened('chatModel');

    const transport = nats ? natsTransport(nats) : inProcessTransport();
    const services = new ServiceClient(transport.client());
    // Embedded stores keep their data in this process's heap, which they can fill.
    const heap = embeddedStoresOpened() ? watchHeap(options.heapWatch) : null;

    return {
      config,
      clock,
      documents,
      eventStore,
      eventStream,
      jobs,
      pubsub,
      replyLog,
      kv,
      keys,
      vectors,
      embedder,
      chatModel,
      transport,
      services,
      async close() {
        heap?.stop();
        await services.close();
        await releaseAll();
      },
    };
  } catch (error) {
    await releaseAll().catch(() => undefined);
    throw error;
  }
};

const chooseEmbedder = (config: Config): Embedder =>
  config.OPENAI_BASE_URL && config.EMBEDDINGS_MODEL
    ? new OpenAiEmbedder({
        baseURL: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY ?? null,
        model: config.EMBEDDINGS_MODEL,
        dimensions: config.EMBEDDINGS_DIMENSIONS ?? 1536,
      })
    : new LocalEmbedder();

const chooseChatModel = (config: Config): ChatModel =>
  config.OPENAI_BASE_URL || config.OPENAI_API_KEY
    ? new OpenAiChatModel({
        baseURL: config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
        apiKey: config.OPENAI_API_KEY ?? null,
        defaultModel: config.OPENAI_MODEL ?? 'gpt-4o-mini',
        timeoutMs: config.OPENAI_TIMEOUT_MS,
      })
    : new LocalResponder();

/** A port this process did not open: any use is a wiring mistake, said plainly. */
const notOpened = <T>(port: string): T =>
  new Proxy({} as object, {
    get(_target, property) {
      if (property === 'then') return undefined;
      throw new Error(`port "${port}" is not opened in this process (InfrastructureOptions.only)`);
    },
  }) as T;
