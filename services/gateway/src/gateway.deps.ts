import type { Clock, Config, KeyValueStore, PubSub, ReplyLog, ServiceClient } from '@palaver/platform';

/** What the gateway needs: it holds no state of its own. */
export interface GatewayDeps {
  config: Config;
  clock: Clock;
  services: ServiceClient;
  pubsub: PubSub;
  kv: KeyValueStore;
  /** Each reply's fragments, replayable: resumed streams and stops read it. */
  replyLog: ReplyLog;
  /** Resolved admin bearer token. */
  adminToken: string;
  /** The seeded demo project's publishable key, for the `/demo` page (embedded mode). */
  demo?: { publishableKey: string } | null;
}
