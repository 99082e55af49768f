import { Inject } from '@nestjs/common';
import { type Clock, type Config, type KeyValueStore, Ports } from '@palaver/platform';
import type { z } from 'zod';
import { isPrefixedToken, newPrefixedToken } from '../domain/prefixed-token';
import { hashSecret } from '../domain/secret-hash';
import { type Expiring, isDueForExtension, isLapsed, withIdleExpiry } from '../domain/session';
import { secureRandomBytes } from '../services/random-bytes';

/** What tells one kind of session from another. */
export type SessionKind<T> = {
  /** Where its sessions are kept, before the SHA-256 of their token. */
  kvPrefix: string;
  /** The start of its tokens (the rest is 43 random base62 characters). */
  tokenPrefix: string;
  /** Its sessions as kept; a value that does not parse reads as no session. */
  schema: z.ZodType<T & Expiring>;
  /** The setting that holds how long a session lives unused. */
  idleTtlSetting: 'SESSION_IDLE_TTL_SECONDS' | 'USER_SESSION_IDLE_TTL_SECONDS';
};

/** A session its token found live, as `extendIfDue` and `remove` take it back. */
export type LiveSession<T> = { tokenHash: string; stored: T & Expiring; nowMs: number };

/**
 * Sessions of one kind behind opaque tokens, in the key-value store (Redis when distributed: every
 * gateway sees them) under the SHA-256 of their token, so a leaked store reveals no token. A session
 * lapses once unused for its idle TTL: the store's TTL drops it, and the expiry kept in the value
 * is read against the Clock port, so the service's notion of time decides.
 */
export abstract class IdleSessionStore<T extends object> {
  protected abstract readonly kind: SessionKind<T>;

  constructor(
    @Inject(Ports.kv) private readonly kv: KeyValueStore,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Pick<Config, SessionKind<T>['idleTtlSetting']>,
  ) {}

  get idleTtlSeconds(): number {
    return this.config[this.kind.idleTtlSetting];
  }

  /** A new session holding `value`: its token, which exists nowhere else. */
  async open(value: T): Promise<string> {
    const token = newPrefixedToken(this.kind.tokenPrefix, secureRandomBytes);
    await this.save(hashSecret(token), value);
    return token;
  }

  /** The session behind a token; null when the token is malformed or unknown, or the session has lapsed. */
  async find(token: string): Promise<LiveSession<T> | null> {
    if (!isPrefixedToken(this.kind.tokenPrefix, token)) return null;
    const tokenHash = hashSecret(token);
    const stored = await this.load(tokenHash);
    const nowMs = this.clock.now().getTime();
    if (!stored || isLapsed(stored, nowMs)) return null;
    return { tokenHash, stored, nowMs };
  }

  /** Restarts the idle timeout of a session in use, when a tenth of it has passed (not on every use: see EXTEND_AFTER_FRACTION). */
  async extendIfDue(session: LiveSession<T>): Promise<void> {
    if (isDueForExtension(session.stored, session.nowMs, this.idleTtlSeconds)) await this.save(session.tokenHash, session.stored);
  }

  async remove(session: LiveSession<T>): Promise<void> {
    await this.kv.del(this.key(session.tokenHash));
  }

  /** Ends the session behind a token, if there is one. */
  async end(token: string): Promise<void> {
    if (isPrefixedToken(this.kind.tokenPrefix, token)) await this.kv.del(this.key(hashSecret(token)));
  }

  private async save(tokenHash: string, value: T): Promise<void> {
    const ttl = this.idleTtlSeconds;
    await this.kv.set(this.key(tokenHash), JSON.stringify(withIdleExpiry(value, this.clock.now().getTime(), ttl)), ttl);
  }

  private async load(tokenHash: string): Promise<(T & Expiring) | null> {
    const raw = await this.kv.get(this.key(tokenHash));
    if (raw === null) return null;
    const parsed = this.kind.schema.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }

  private key(tokenHash: string): string {
    return `${this.kind.kvPrefix}:${tokenHash}`;
  }
}

const safeJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
};
