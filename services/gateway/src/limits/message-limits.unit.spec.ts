import { randomUUID } from 'node:crypto';
import { AppError, type ProjectRecord } from '@palaver/contracts';
import { InProcessKeyValueStore, ManualClock } from '@palaver/platform';
import { describe, expect, it } from 'vitest';
import { MessageLimits } from './message-limits';

const project = (messagesPerMinute: number | null, monthlyMessages: number | null): ProjectRecord =>
  ({ id: randomUUID(), limits: { messagesPerMinute, monthlyMessages } }) as unknown as ProjectRecord;

const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
};

describe('MessageLimits with both limits', () => {
  const setup = () => new MessageLimits(new InProcessKeyValueStore(new ManualClock()), new ManualClock());
  const send = async () => 'sent';

  it('gives the minute back when the month refuses, so the next minute window is untouched', async () => {
    const limits = setup();
    const p = project(2, 1);
    expect(await limits.within(p, send)).toBe('sent');
    expect((await refusal(limits.within(p, send))).details).toMatchObject({ limit: 'monthlyMessages' });
    // Had the refused send kept its minute, this project would now be at its minute limit (2).
    const roomy = { ...p, limits: { messagesPerMinute: 2, monthlyMessages: 10 } } as ProjectRecord;
    expect(await limits.within(roomy, send)).toBe('sent');
  });

  it('gives the month back when the minute refuses, and names the minute', async () => {
    const limits = setup();
    const p = project(1, 2);
    expect(await limits.within(p, send)).toBe('sent');
    expect((await refusal(limits.within(p, send))).details).toMatchObject({ limit: 'messagesPerMinute' });
    // Had the refused send kept its month, the monthly quota of 2 would now be used up.
    const roomy = { ...p, limits: { messagesPerMinute: 10, monthlyMessages: 2 } } as ProjectRecord;
    expect(await limits.within(roomy, send)).toBe('sent');
    expect((await refusal(limits.within(roomy, send))).details).toMatchObject({ limit: 'monthlyMessages' });
  });

  it('names the minute when both refuse, and counts neither', async () => {
    const limits = setup();
    const p = project(1, 1);
    expect(await limits.within(p, send)).toBe('sent');
    expect((await refusal(limits.within(p, send))).details).toMatchObject({ limit: 'messagesPerMinute' });
    expect((await refusal(limits.within(p, send))).details).toMatchObject({ limit: 'messagesPerMinute' });
  });
});
