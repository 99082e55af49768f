import { Inject, Injectable } from '@nestjs/common';
import type { Actor, AuditEntry, AuditPage, AuditQuery, RelayedAuditEntry } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { uuidV7 } from '../domain/uuid-v7';
import { AuditRepository } from '../repositories/audit.repository';
import { secureRandomBytes } from './random-bytes';

/** Fields never written to the log, whatever a caller passes in `changes`. */
const SECRET_FIELDS = /password|secret|token|hash|^key$/i;

const withoutSecrets = (changes: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
  if (!changes) return undefined;
  return Object.fromEntries(Object.entries(changes).filter(([field]) => !SECRET_FIELDS.test(field)));
};

/**
 * Appends to the audit log and reads it. Every command of identity that changes state calls
 * `record` once its change is stored; other services append through `identity.cmd.append-audit.v1`.
 */
@Injectable()
export class AuditService {
  /** The last id's millisecond and sequence: ids of one instance only grow. */
  private lastMs = 0;
  private sequence = 0;

  constructor(
    @Inject(AuditRepository) private readonly log: AuditRepository,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  /**
   * Appends an entry. One relayed with its own id (another service's audit outbox, which may
   * deliver it more than once) is appended once: a later copy answers the entry already stored.
   */
  async append(entry: RelayedAuditEntry): Promise<AuditEntry> {
    const now = this.clock.now();
    const changes = withoutSecrets(entry.changes);
    const stored: AuditEntry = {
      id: entry.id ?? this.nextId(now.getTime()),
      at: entry.at ?? now.toISOString(),
      projectId: entry.projectId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      ...(changes && Object.keys(changes).length > 0 ? { changes } : {}),
    };
    return this.log.appendOnce(stored);
  }

  /** Shorthand for identity's own commands. */
  record(
    actor: Actor,
    projectId: string | null,
    action: string,
    target: { type: string; id: string },
    changes?: Record<string, unknown>,
  ): Promise<AuditEntry> {
    return this.append({ actor, projectId, action, target, ...(changes ? { changes } : {}) });
  }

  private nextId(nowMs: number): string {
    if (nowMs > this.lastMs || this.sequence >= 0xfff) {
      this.lastMs = Math.max(nowMs, this.lastMs + (this.sequence >= 0xfff ? 1 : 0));
      this.sequence = 0;
    } else {
      this.sequence += 1;
    }
    return uuidV7(this.lastMs, this.sequence, secureRandomBytes(8));
  }

  list(projectId: string, query: AuditQuery): Promise<AuditPage> {
    return this.log.list(projectId, query);
  }
}
