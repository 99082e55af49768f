import { setTimeout as delay } from 'node:timers/promises';
import type { DocumentBody, QnaBody } from '@palaver/contracts';
import type { ImportItem } from '@palaver/knowledge-formats';
import { AdminApiError } from './admin-client';

/** Where items go: the admin API client, or anything with the same two calls. */
export interface KnowledgeWriter {
  createDocument(projectId: string, body: DocumentBody, signal?: AbortSignal): Promise<{ id: string }>;
  createQna(projectId: string, body: QnaBody, signal?: AbortSignal): Promise<{ id: string }>;
}

export type ImportOutcome = { item: ImportItem; ok: true; id: string } | { item: ImportItem; ok: false; reason: string };

export interface ImportCallbacks {
  /** After each item that got a final answer (imported or failed). */
  onItemDone?(outcome: ImportOutcome, progress: { done: number; total: number }): void;
  /** Before waiting to send an item again after a 429/503. */
  onRetry?(item: ImportItem, retry: { attempt: number; delayMs: number; reason: string }): void;
}

export interface ImportOptions {
  projectId: string;
  /** Requests in flight at once; default 4. */
  concurrency?: number;
  /** Tries per item, the first included; default 4. */
  maxAttempts?: number;
  /** Wait before a retry when the answer has no Retry-After: this, doubled each time; default 1000. */
  backoffMs?: number;
  /** A longer Retry-After is cut to this; default 60 000. */
  maxRetryDelayMs?: number;
  /** Stops the import: no new item starts, retry waits end; requests in flight finish. */
  signal?: AbortSignal;
}

export interface ImportReport {
  imported: { item: ImportItem; id: string }[];
  failed: { item: ImportItem; reason: string }[];
  /** Items not imported because the import was stopped (never sent, or stopped while waiting to retry). */
  interrupted: ImportItem[];
}

const RETRYABLE = new Set([429, 503]);

class Stopped extends Error {}

const wait = async (ms: number, signal?: AbortSignal): Promise<void> => {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) throw new Stopped();
    throw err;
  }
};

const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Sends every item with bounded concurrency, retrying 429/503 as the server asks. */
export const importItems = async (
  writer: KnowledgeWriter,
  items: readonly ImportItem[],
  options: ImportOptions,
  callbacks: ImportCallbacks = {},
): Promise<ImportReport> => {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 4));
  const backoffMs = options.backoffMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const { signal, projectId } = options;
  const report: ImportReport = { imported: [], failed: [], interrupted: [] };
  let next = 0;
  let done = 0;

  const send = (item: ImportItem) =>
    item.kind === 'document' ? writer.createDocument(projectId, item.body) : writer.createQna(projectId, item.body);

  const finish = (outcome: ImportOutcome) => {
    if (outcome.ok) report.imported.push({ item: outcome.item, id: outcome.id });
    else report.failed.push({ item: outcome.item, reason: outcome.reason });
    done++;
    callbacks.onItemDone?.(outcome, { done, total: items.length });
  };

  const importOne = async (item: ImportItem): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const created = await send(item);
        finish({ item, ok: true, id: created.id });
        return;
      } catch (err) {
        const retryable = err instanceof AdminApiError && RETRYABLE.has(err.status);
        if (!retryable || attempt >= maxAttempts) {
          const tries = retryable ? ` (after ${attempt} attempts)` : '';
          finish({ item, ok: false, reason: `${reasonOf(err)}${tries}` });
          return;
        }
        const delayMs = Math.min(maxRetryDelayMs, err.retryAfterMs ?? backoffMs * 2 ** (attempt - 1));
        callbacks.onRetry?.(item, { attempt, delayMs, reason: reasonOf(err) });
        try {
          await wait(delayMs, signal);
        } catch (stop) {
          if (!(stop instanceof Stopped)) throw stop;
          report.interrupted.push(item);
          return;
        }
      }
    }
  };

  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const item = items[next++] as ImportItem;
      await importOne(item);
    }
  };

  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  report.interrupted.push(...items.slice(next));
  return report;
};
