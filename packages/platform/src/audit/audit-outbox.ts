import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AccountMessages, AppError, type NewAuditEntry, type RelayedAuditEntry } from '@palaver/contracts';
import { ZodError } from 'zod';
import type { Clock } from '../clock/clock.port';
import type { Collection, DocumentStore } from '../document-store/document-store.port';
import { logger } from '../logger/logger';
import { DrainLoop } from '../storage/drain-loop';
import { Ports } from '../tokens';
import type { ServiceClient } from '../transport/service-client';

export const AUDIT_OUTBOX = 'audit_outbox';

interface OutboxDocument {
  _id: string;
  entry: RelayedAuditEntry & { id: string; at: string };
  /** `held` while its change runs; `ready` once the change is stored. */
  state: 'held' | 'ready';
  /** When the relay may send it: at once when ready; a held one only once its change has surely ended. */
  relayAfter: string;
}

const BATCH = 100;
const SWEEP_INTERVAL_MS = 5_000;
/** A change still running this long after its entry was held was cut short (a crash): the entry is relayed anyway. */
const HELD_MS = 60_000;
/** How long a command waits for its entry's first relay before answering (identity down: the sweep delivers it). */
const FIRST_RELAY_WAIT_MS = 2_000;
const RELAY_TIMEOUT_MS = 5_000;

/** Identity refused the entry itself: sending it again cannot succeed. */
const isRefused = (err: unknown): boolean => err instanceof ZodError || (err instanceof AppError && err.code === 'VALIDATION_ERROR');

/**
 * A service's audit outbox (docs/accounts.md): the entry of a change made through the admin API
 * is stored in the service's own document store before the change runs (the store has no write
 * spanning two collections), marked ready once the change is stored and removed if it fails;
 * then relayed at least once to identity under the id chosen here, which identity appends once.
 * An entry whose change a crash interrupted is relayed after HELD_MS with `outcome: "unknown"`:
 * the log errs on the side of recording an attempt that may have taken effect.
 */
@Injectable()
export class AuditOutbox implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly entries: Collection<OutboxDocument>;
  private readonly loop = new DrainLoop(() => this.drain(), 'audit outbox', SWEEP_INTERVAL_MS);

  constructor(
    @Inject(Ports.documents) documents: DocumentStore,
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {
    this.entries = documents.collection<OutboxDocument>(AUDIT_OUTBOX, [{ keys: { relayAfter: 1 } }]);
  }

  /**
   * Runs `change` with its audit entry: the entry is stored first, kept when the change succeeds
   * and dropped when it throws. Never pass a secret or message text in `changes`.
   */
  async around<T>(entry: NewAuditEntry, change: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const id = randomUUID();
    await this.entries.insertOne({
      _id: id,
      entry: { ...entry, id, at: now.toISOString() },
      state: 'held',
      relayAfter: new Date(now.getTime() + HELD_MS).toISOString(),
    });
    let result: T;
    try {
      result = await change();
    } catch (err) {
      await this.entries.deleteOne({ _id: id });
      throw err;
    }
    await this.entries.updateOne({ _id: id }, { $set: { state: 'ready', relayAfter: now.toISOString() } });
    await this.relaySoon();
    return result;
  }

  /** Records a change already stored (one whose entry could not be known before it ran). */
  record(entry: NewAuditEntry): Promise<void> {
    return this.around(entry, async () => undefined);
  }

  /** Delivers every entry due now; rejects when identity cannot be reached (the entries stay). */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  /** The first relay, so the log shows the change when the command answers; bounded, the sweep retries. */
  private async relaySoon(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FIRST_RELAY_WAIT_MS);
    });
    await Promise.race([this.loop.flushQuietly(), waited]);
    clearTimeout(timer);
  }

  private async drain(): Promise<void> {
    for (;;) {
      const due = await this.entries.find(
        { relayAfter: { $lte: this.clock.now().toISOString() } },
        { sort: { relayAfter: 1 }, limit: BATCH },
      );
      for (const doc of due) {
        const entry = doc.state === 'held' ? { ...doc.entry, changes: { ...doc.entry.changes, outcome: 'unknown' } } : doc.entry;
        try {
          await this.services.send(AccountMessages.appendAudit, entry, { idempotent: true, timeoutMs: RELAY_TIMEOUT_MS });
        } catch (err) {
          if (!isRefused(err)) throw err;
          logger.error({ err, action: entry.action, target: entry.target }, 'audit outbox: entry refused by identity, dropped');
        }
        await this.entries.deleteOne({ _id: doc._id });
      }
      if (due.length < BATCH) return;
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }
}
