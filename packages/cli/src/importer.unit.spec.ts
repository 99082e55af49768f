import { setImmediate as laterTurn } from 'node:timers/promises';
import type { DocumentBody, QnaBody } from '@palaver/contracts';
import type { ImportItem } from '@palaver/knowledge-formats';
import { describe, expect, it } from 'vitest';
import { AdminApiError } from './admin-client';
import { type ImportOutcome, importItems, type KnowledgeWriter } from './importer';

const doc = (n: number): ImportItem => ({
  kind: 'document',
  source: `docs.ndjson:${n}`,
  body: { title: `Doc ${n}`, url: `https://site.example/${n}`, content: `content ${n}` },
});
const qna = (n: number): ImportItem => ({ kind: 'qna', source: `docs.ndjson:${n}`, body: { question: `Q${n}?`, answer: `A${n}` } });

/** A writer that records calls; `answer` decides each call's fate by title/question and attempt. */
const fakeWriter = (answer: (key: string, attempt: number) => Error | null = () => null) => {
  const attempts = new Map<string, number>();
  const calls: { projectId: string; kind: string; key: string }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const create = async (projectId: string, kind: string, key: string) => {
    calls.push({ projectId, kind, key });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Answered on a later turn of the event loop: the writes the other workers start meanwhile overlap it.
    await laterTurn();
    inFlight--;
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    const error = answer(key, attempt);
    if (error) throw error;
    return { id: `id-${key}` };
  };
  const writer: KnowledgeWriter = {
    createDocument: (projectId: string, body: DocumentBody) => create(projectId, 'document', body.title),
    createQna: (projectId: string, body: QnaBody) => create(projectId, 'qna', body.question),
  };
  return { writer, calls, attempts, maxInFlight: () => maxInFlight };
};

describe('importItems', () => {
  it('sends every item to its endpoint with at most `concurrency` in flight, reporting progress', async () => {
    const fake = fakeWriter();
    const items = [doc(1), qna(2), doc(3), doc(4), qna(5), doc(6), doc(7)];
    const progress: number[] = [];
    const report = await importItems(
      fake.writer,
      items,
      { projectId: 'p1', concurrency: 3 },
      {
        onItemDone: (_outcome, { done, total }) => progress.push(done * 100 + total),
      },
    );
    expect(fake.maxInFlight()).toBe(3);
    expect(
      fake.calls
        .filter((c) => c.kind === 'qna')
        .map((c) => c.key)
        .sort(),
    ).toEqual(['Q2?', 'Q5?']);
    expect(fake.calls.every((c) => c.projectId === 'p1')).toBe(true);
    expect(report.imported.map((i) => i.id).sort()).toEqual([
      'id-Doc 1',
      'id-Doc 3',
      'id-Doc 4',
      'id-Doc 6',
      'id-Doc 7',
      'id-Q2?',
      'id-Q5?',
    ]);
    expect(report.failed).toEqual([]);
    expect(report.interrupted).toEqual([]);
    expect(progress).toEqual([107, 207, 307, 407, 507, 607, 707]);
  });

  it('retries 429 and 503 after Retry-After (or a doubling backoff) and fails other errors at once', async () => {
    const fake = fakeWriter((key, attempt) => {
      if (key === 'Doc 1' && attempt === 1) return new AdminApiError(429, '429 RATE_LIMITED: slow down', 'RATE_LIMITED', 40);
      if (key === 'Doc 2' && attempt <= 2) return new AdminApiError(503, '503: unavailable');
      if (key === 'Doc 3') return new AdminApiError(422, '422 INVALID_REQUEST_BODY: url: bad');
      if (key === 'Doc 4') return new AdminApiError(503, '503: unavailable');
      return null;
    });
    const retries: { source: string; attempt: number; delayMs: number }[] = [];
    const outcomes: ImportOutcome[] = [];
    const report = await importItems(
      fake.writer,
      [doc(1), doc(2), doc(3), doc(4)],
      { projectId: 'p', concurrency: 4, backoffMs: 10, maxAttempts: 3 },
      {
        onRetry: (item, { attempt, delayMs }) => retries.push({ source: item.source, attempt, delayMs }),
        onItemDone: (outcome) => outcomes.push(outcome),
      },
    );
    expect(fake.attempts.get('Doc 1')).toBe(2);
    expect(fake.attempts.get('Doc 2')).toBe(3);
    expect(fake.attempts.get('Doc 3')).toBe(1);
    expect(fake.attempts.get('Doc 4')).toBe(3);
    expect(retries).toEqual(
      expect.arrayContaining([
        { source: 'docs.ndjson:1', attempt: 1, delayMs: 40 },
        { source: 'docs.ndjson:2', attempt: 1, delayMs: 10 },
        { source: 'docs.ndjson:2', attempt: 2, delayMs: 20 },
        { source: 'docs.ndjson:4', attempt: 1, delayMs: 10 },
        { source: 'docs.ndjson:4', attempt: 2, delayMs: 20 },
      ]),
    );
    expect(retries).toHaveLength(5);
    expect(report.imported.map((i) => i.item.source).sort()).toEqual(['docs.ndjson:1', 'docs.ndjson:2']);
    expect(report.failed.map((f) => [f.item.source, f.reason]).sort()).toEqual([
      ['docs.ndjson:3', '422 INVALID_REQUEST_BODY: url: bad'],
      ['docs.ndjson:4', '503: unavailable (after 3 attempts)'],
    ]);
    expect(outcomes).toHaveLength(4);
  });

  it('caps a long Retry-After', async () => {
    const fake = fakeWriter((_key, attempt) => (attempt === 1 ? new AdminApiError(429, 'busy', undefined, 3_600_000) : null));
    const delays: number[] = [];
    const report = await importItems(
      fake.writer,
      [doc(1)],
      { projectId: 'p', maxRetryDelayMs: 15 },
      { onRetry: (_i, r) => delays.push(r.delayMs) },
    );
    expect(delays).toEqual([15]);
    expect(report.imported).toHaveLength(1);
  });

  it('stops on the signal: nothing new starts, a retry wait ends, requests in flight finish', async () => {
    const stop = new AbortController();
    // Doc 1 is answered first (429 with a long Retry-After) while Doc 2 is still in flight.
    const fake = fakeWriter((key) => (key === 'Doc 1' ? new AdminApiError(429, 'busy', undefined, 60_000) : null));
    const items = [doc(1), doc(2), doc(3), doc(4), doc(5)];
    const started = Date.now();
    const report = await importItems(
      fake.writer,
      items,
      { projectId: 'p', concurrency: 2, signal: stop.signal },
      {
        onRetry: () => stop.abort(),
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(report.imported.map((i) => i.item.source)).toEqual(['docs.ndjson:2']);
    expect(report.failed).toEqual([]);
    expect(report.interrupted.map((i) => i.source)).toEqual(['docs.ndjson:1', 'docs.ndjson:3', 'docs.ndjson:4', 'docs.ndjson:5']);
    expect(fake.calls.map((c) => c.key)).toEqual(['Doc 1', 'Doc 2']);
  });
});
