import { hash } from 'node:crypto';
import { type AgentInfo, AppError, type IdentityChange, type SessionInfo } from '@palaver/contracts';
import { type Clock, logger, systemClock } from '@palaver/platform';
import { LRUCache } from 'lru-cache';

/** The credential a live stream was opened with. */
export type LiveCredential = { kind: 'session'; token: string; session: SessionInfo } | { kind: 'agent'; agent: AgentInfo };

export interface LiveStream {
  /** Aborted when the stream must end (credential revoked or expired, gateway closing); the reason is an AppError. */
  readonly signal: AbortSignal;
  /** Gives the stream's slot back; called once the stream has ended, whichever way (a second call does nothing). */
  release(): void;
}

export interface LiveStreamOptions {
  /** Streams one session may hold open on this instance. */
  perSession: number;
  /** Streams one agent may hold open on this instance. */
  perAgent: number;
  /** How long until the session behind `token` lapses unless used (without extending it); UNAUTHORIZED once it has. */
  sessionExpiresInMs: (token: string) => Promise<number>;
  /** Whose time the sessions' expiries are checked by (identity's). */
  clock?: Clock;
}

/** Retry-After of a refused stream: a slot frees only when another stream of the credential ends. */
const RETRY_AFTER_SECONDS = 5;
/** When identity cannot say whether a session still lives, ask again after this (the stream stays open meanwhile). */
const RECHECK_AFTER_ERROR_MS = 5_000;
/** The longest a Node timer waits. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * A revocation may reach this instance between a request's authentication and its stream's
 * registration: revoked credentials are remembered this long, far longer than that gap.
 */
const REVOKED_MEMORY = { max: 10_000, ttl: 60_000 };

/** The streams of one credential on this instance. */
interface Holder {
  readonly streams: Set<AbortController>;
  /** The key a session was made with (its revocation ends the session's streams). */
  readonly keyId: string | null;
  /** The session's visitor (their erasure ends the session's streams). */
  readonly visitorId: string | null;
  /** Cancels the session's next expiry check; null for agents. */
  cancelCheck: (() => void) | null;
}

const revoked = (reason: string) => new AppError('UNAUTHORIZED', reason);

/**
 * The live event streams open on this gateway instance, by the credential each was opened with:
 * it caps how many one session or agent holds open (429 beyond), and ends them when their
 * credential stops. Revocations come from identity's announcements (`follow`), which every
 * instance receives and applies before identity's revoking call answers; a session's streams end
 * when it lapses, checked with identity at its expiry (it may have been extended by use meanwhile).
 */
export class LiveStreamRegistry {
  private readonly holders = new Map<string, Holder>();
  private readonly revokedRecently = new LRUCache<string, true>(REVOKED_MEMORY);

  constructor(private readonly options: LiveStreamOptions) {}

  /** Streams open on this instance (for tests and metrics). */
  get size(): number {
    let size = 0;
    for (const holder of this.holders.values()) size += holder.streams.size;
    return size;
  }

  /** Registers a stream about to open: 429 RATE_LIMIT_EXCEEDED past the credential's cap, 401 if it was just revoked. */
  open(credential: LiveCredential): LiveStream {
    const id = holderId(credential);
    const keyId = credential.kind === 'session' ? credential.session.keyId : null;
    const visitorId = credential.kind === 'session' ? credential.session.visitorId : null;
    if (
      this.revokedRecently.has(id) ||
      (keyId !== null && this.revokedRecently.has(`key:${keyId}`)) ||
      (visitorId !== null && this.revokedRecently.has(`visitor:${visitorId}`))
    ) {
      throw revoked('this credential has been revoked or has expired');
    }
    let holder = this.holders.get(id);
    const max = credential.kind === 'session' ? this.options.perSession : this.options.perAgent;
    if (holder && holder.streams.size >= max) {
      const limit = credential.kind === 'session' ? 'liveStreamsPerSession' : 'liveStreamsPerAgent';
      throw new AppError('RATE_LIMIT_EXCEEDED', `at most ${max} live streams may be open at once per ${credential.kind}`, {
        retryAfter: RETRY_AFTER_SECONDS,
        limit,
        max,
      });
    }
    if (!holder) {
      holder = { streams: new Set(), keyId, visitorId, cancelCheck: null };
      this.holders.set(id, holder);
      if (credential.kind === 'session') void this.checkSession(id, holder, credential.token);
    }
    const controller = new AbortController();
    holder.streams.add(controller);
    const owner = holder;
    return {
      signal: controller.signal,
      release: () => {
        if (!owner.streams.delete(controller)) return;
        if (owner.streams.size === 0 && this.holders.get(id) === owner) this.forget(id, owner);
      },
    };
  }

  /** Ends the streams a change of identity stops (keep it subscribed: IdentityCache.follow). */
  apply(change: IdentityChange): void {
    switch (change.kind) {
      case 'key-revoked': {
        this.revokedRecently.set(`key:${change.keyId}`, true);
        for (const [id, holder] of this.holders) {
          if (holder.keyId === change.keyId) this.end(id, holder, revoked('the key of this session has been revoked'));
        }
        return;
      }
      case 'agent-revoked': {
        const id = `agent:${change.agentId}`;
        this.revokedRecently.set(id, true);
        const holder = this.holders.get(id);
        if (holder) this.end(id, holder, revoked('this agent token has been revoked'));
        return;
      }
      case 'visitor-erased': {
        this.revokedRecently.set(`visitor:${change.visitorId}`, true);
        for (const [id, holder] of this.holders) {
          if (holder.visitorId === change.visitorId) this.end(id, holder, revoked('this visitor has been erased'));
        }
        return;
      }
      case 'key-created':
      case 'project-changed':
      case 'assistant-changed':
        return;
      default: {
        const unknown: never = change;
        throw new Error(`unknown identity change ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Ends every stream (the gateway is closing). */
  closeAll(): void {
    for (const [id, holder] of this.holders) this.end(id, holder, new AppError('SERVICE_UNAVAILABLE', 'the server is shutting down'));
  }

  /**
   * Asks identity how long the session has left and checks again then; ends its streams once it
   * has lapsed. Asking does not extend the session: an open stream is not a use of it.
   */
  private async checkSession(id: string, holder: Holder, token: string): Promise<void> {
    holder.cancelCheck = null;
    let nextCheckMs: number;
    try {
      nextCheckMs = await this.options.sessionExpiresInMs(token);
    } catch (err) {
      if (this.holders.get(id) !== holder) return;
      if (err instanceof AppError && err.code === 'UNAUTHORIZED') {
        this.end(id, holder, revoked('this session has expired'));
        return;
      }
      logger.warn({ err }, "could not check a live stream's session; checking again shortly");
      nextCheckMs = RECHECK_AFTER_ERROR_MS;
    }
    if (this.holders.get(id) !== holder) return;
    const clock = this.options.clock ?? systemClock;
    holder.cancelCheck = clock.after(Math.min(Math.max(nextCheckMs, 1), MAX_TIMER_MS), () => void this.checkSession(id, holder, token));
  }

  /** Aborts the holder's streams and frees their slots at once (the credential opens no more). */
  private end(id: string, holder: Holder, reason: AppError): void {
    this.forget(id, holder);
    for (const controller of holder.streams) controller.abort(reason);
    holder.streams.clear();
  }

  private forget(id: string, holder: Holder): void {
    holder.cancelCheck?.();
    holder.cancelCheck = null;
    this.holders.delete(id);
  }
}

/** A session by a digest of its token (never the token itself), an agent by its id. */
const holderId = (credential: LiveCredential): string =>
  credential.kind === 'session' ? `session:${hash('sha256', credential.token, 'base64url')}` : `agent:${credential.agent.agentId}`;
