/** Nest injection tokens of the ports. A class injects only the ports it uses. */
export const Ports = {
  config: 'Config',
  clock: 'Clock',
  documents: 'DocumentStore',
  eventStore: 'EventStore',
  eventStream: 'EventStream',
  jobs: 'JobQueue',
  pubsub: 'PubSub',
  replyLog: 'ReplyLog',
  kv: 'KeyValueStore',
  keys: 'KeyStore',
  vectors: 'VectorIndex',
  embedder: 'Embedder',
  chatModel: 'ChatModel',
  services: 'ServiceClient',
} as const;
