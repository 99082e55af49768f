import { hash } from 'node:crypto';
import {
  IDENTITY_CHANGES_CHANNEL,
  IdentityChange,
  IdentityMessages,
  type KeyInfo,
  type KeyType,
  type ProjectRecord,
  type SessionInfo,
} from '@palaver/contracts';
import { type Clock, logger, type PubSub, type ServiceClient } from '@palaver/platform';
import { LRUCache } from 'lru-cache';

export interface IdentityCacheOptions {
  /** How long an answer is reused at most, even if an announcement of its change was lost. */
  ttlMs: number;
  /** The sessions' idle TTL: a cached session is reused for at most a tenth of it (see below). */
  sessionIdleTtlSeconds: number;
  /** Entries per kind. */
  max: number;
  /** Identity's time, by which a cached session ages (sessions lapse by it); the process's own when absent. */
  clock?: Clock;
}

export const DEFAULT_IDENTITY_CACHE: Omit<IdentityCacheOptions, 'sessionIdleTtlSeconds'> = { ttlMs: 30_000, max: 50_000 };

/**
 * The gateway's copy of identity's answers on the hot path: sessions, keys, projects and CORS
 * verdicts, so a request costs no identity call while nothing changed. Only successes are kept.
 *
 * Freshness: identity announces every change that makes an answer stale on the pub/sub port
 * (`IDENTITY_CHANGES_CHANNEL`: a key revoked or created, a project changed, an agent revoked);
 * every gateway drops what it touches (and its followers, the live streams, end what it stops),
 * and the call that made the change answers once all have (identity waits for their
 * confirmations), so revocation is immediate on every instance. An answer being fetched
 * while a change arrives is returned but not kept (the generation check). Entries also expire
 * after `ttlMs`, which bounds staleness should an announcement be lost (a pub/sub reconnect).
 *
 * Sessions: identity extends a session only once a tenth of its idle TTL has passed, and the
 * gateway reuses an answer for at most that tenth, so the session is still seen by identity
 * often enough to be extended, and a cached session never outlives its expiry.
 */
export class IdentityCache {
  private readonly sessions: LRUCache<string, SessionInfo>;
  private readonly keys: LRUCache<string, KeyInfo>;
  private readonly projects: LRUCache<string, ProjectRecord>;
  private readonly origins: LRUCache<string, boolean>;
  private generation = 0;
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly followers = new Set<(change: IdentityChange) => void>();

  constructor(
    private readonly services: ServiceClient,
    options: IdentityCacheOptions,
  ) {
    const sessionTtl = Math.min(options.ttlMs, options.sessionIdleTtlSeconds * 100);
    const { clock } = options;
    this.sessions = new LRUCache({ max: options.max, ttl: sessionTtl, ...(clock ? { perf: { now: () => clock.now().getTime() } } : {}) });
    this.keys = new LRUCache({ max: options.max, ttl: options.ttlMs });
    this.projects = new LRUCache({ max: options.max, ttl: options.ttlMs });
    this.origins = new LRUCache({ max: options.max, ttl: options.ttlMs });
  }

  /** Listens to identity's announcements; resolves once the subscription is live. */
  async start(pubsub: PubSub): Promise<void> {
    this.unsubscribe = await pubsub.subscribe(IDENTITY_CHANGES_CHANNEL, (message) => {
      const change = IdentityChange.safeParse(message);
      if (change.success) this.apply(change.data);
      else logger.warn({ message }, 'ignored a malformed identity change');
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  session(token: string, origin: string | null): Promise<SessionInfo> {
    return this.through(this.sessions, `${digest(token)}\n${origin ?? ''}`, () =>
      this.services.send(IdentityMessages.resolveSession, { token, origin }),
    );
  }

  key(key: string, origin: string | null, type: KeyType): Promise<KeyInfo> {
    return this.through(this.keys, `${type}\n${digest(key)}\n${origin ?? ''}`, () =>
      this.services.send(IdentityMessages.resolveKey, { key, origin, type }),
    );
  }

  project(projectId: string): Promise<ProjectRecord> {
    return this.through(this.projects, projectId, () => this.services.send(IdentityMessages.getProject, { projectId }));
  }

  originAllowed(origin: string, apiKey: string | null): Promise<boolean> {
    return this.through(this.origins, `${origin}\n${apiKey === null ? '' : digest(apiKey)}`, async () => {
      const { allowed } = await this.services.send(IdentityMessages.checkOrigin, { origin, apiKey });
      return allowed;
    });
  }

  /**
   * Calls `onChange` with every change, after the cache has dropped what it touches (before the
   * announcement is confirmed to identity), until the returned function is called.
   */
  follow(onChange: (change: IdentityChange) => void): () => void {
    this.followers.add(onChange);
    return () => this.followers.delete(onChange);
  }

  /** Drops what a change makes stale (also called directly by the instance that made the change). */
  apply(change: IdentityChange): void {
    this.drop(change);
    for (const onChange of this.followers) {
      try {
        onChange(change);
      } catch (err) {
        logger.error({ err, change }, 'a follower of identity changes failed');
      }
    }
  }

  private drop(change: IdentityChange): void {
    this.generation += 1;
    switch (change.kind) {
      case 'key-revoked':
        for (const [token, session] of this.sessions.entries()) if (session.keyId === change.keyId) this.sessions.delete(token);
        for (const [key, info] of this.keys.entries()) if (info.keyId === change.keyId) this.keys.delete(key);
        this.origins.clear();
        return;
      case 'key-created':
        this.origins.clear();
        return;
      case 'project-changed':
        this.projects.delete(change.projectId);
        return;
      case 'visitor-erased':
        for (const [token, session] of this.sessions.entries()) if (session.visitorId === change.visitorId) this.sessions.delete(token);
        return;
      case 'assistant-changed': // the gateway keeps no assistants
      case 'agent-revoked': // nor agents (their tokens are checked on every call)
        return;
      default: {
        const unknown: never = change;
        throw new Error(`unknown identity change ${JSON.stringify(unknown)}`);
      }
    }
  }

  private async through<V extends {}>(cache: LRUCache<string, V>, key: string, load: () => Promise<V>): Promise<V> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) cache.set(key, value);
    return value;
  }
}

/** Cache keys hold a digest, never a credential itself. */
const digest = (secret: string): string => hash('sha256', secret, 'base64url');
