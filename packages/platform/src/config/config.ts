import { QUIET_REPLY_PROGRESS_MS } from '@palaver/contracts';
import { z } from 'zod';

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** Every setting comes from the environment; README.md has the table. */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /**
   * A service process's own health server (`/livez`, `/readyz`), on HOST: what its container's or
   * pod's probes ask. 0 takes any free port (the cluster launcher does, and reports it).
   */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  DATA_DIR: z.string().default('./data'),
  ADMIN_TOKEN: optionalString,
  SESSION_IDLE_TTL_SECONDS: z.coerce.number().int().min(1).default(1800),
  /** A dashboard user's session cookie lapses after this long unused; each use extends it. */
  USER_SESSION_IDLE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(8 * 3600),
  /** How long an invitation link stays valid. */
  INVITATION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(72 * 3600),
  /** Single sign-on with an OpenID Connect provider: all three set turn on "Sign in with SSO". */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /**
   * How long the gateway waits for a reply's next fragment before giving up on it; at least twice
   * the progress interval of a quiet reply, so that one still generating is never given up.
   */
  REPLY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(2 * QUIET_REPLY_PROGRESS_MS)
    .default(120_000),
  /**
   * How long a reply's fragments stay replayable (GET /v2/conversations/{id}/stream) after its
   * last one: longer than REPLY_TIMEOUT_MS, so a reply still generating is never forgotten.
   */
  REPLY_LOG_TTL_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Replies one inference process generates at once (each mostly waits on the model); the next waits for a free one. */
  INFERENCE_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(64),
  /** A job whose worker died is run again (as a new attempt) within 1.5 times this (BullMQ lock). */
  JOB_STALL_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  /** Time to receive a whole HTTP request (headers and body); slower clients get 408. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** A connection silent this long is closed (event streams excepted). */
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Live event streams one session may hold open on one gateway instance; the next is 429. */
  LIVE_STREAMS_PER_SESSION: z.coerce.number().int().min(1).default(5),
  /** Live feeds (`/agent/v1/events`) one agent may hold open on one gateway instance; the next is 429. */
  LIVE_STREAMS_PER_AGENT: z.coerce.number().int().min(1).default(10),
  NATS_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  MONGODB_URL: optionalUrl,
  MONGODB_DB: z.string().default('palaver'),
  QDRANT_URL: optionalUrl,
  QDRANT_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_API_KEY: optionalString,
  OPENAI_MODEL: optionalString,
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  EMBEDDINGS_MODEL: optionalString,
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).optional(),
  /**
   * Terms the search service's in-memory lexical indexes hold in all (about 60 bytes each); past
   * it, the least recently searched projects' indexes are dropped, rebuilt by their next search.
   */
  LEXICAL_INDEX_MAX_TOKENS: z.coerce.number().int().min(0).default(4_000_000),
  /** Path prefix of surface B (the header-key surface), e.g. `/api`. */
  SURFACE_B_BASE: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as /api')
    .default('/api'),
  /** Lets outbound requests (crawler, webhooks) reach loopback and private addresses; link-local never. */
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: z.enum(['true', 'false']).default('false'),
  /** Host names outbound requests may reach, comma-separated (`*.example.com` for subdomains); unset: any public host. */
  OUTBOUND_ALLOWED_HOSTS: optionalString,
  /** Requests a website crawl makes to the site at once. */
  CRAWL_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** Least time between the starts of two requests of a crawl to the site (robots.txt Crawl-delay may ask for more). */
  CRAWL_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  /** How often the search service looks for sources whose refresh is due. */
  SOURCE_SCHEDULE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** Waits before each retry of a webhook delivery, comma-separated ms; unset: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
  WEBHOOK_RETRY_DELAYS_MS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'must be a comma-separated list of milliseconds')
      .optional(),
  ),
  /** One delivery attempt may take this long. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** An endpoint whose every attempt has failed for this long is disabled (default 5 days). */
  WEBHOOK_DISABLE_AFTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5 * 24 * 3_600_000),
  /** How often pending deliveries whose job was lost (an embedded queue's, on a restart) are queued again. */
  WEBHOOK_RECOVERY_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often the conversation service checks whether today's retention run (projects' retentionDays) is done. */
  RETENTION_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).default(3_600_000),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  LOG_LEVEL: z.string().default('info'),
});
export type Config = z.infer<typeof ConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`invalid configuration:\n${lines}`);
  }
  return parsed.data;
};
