import { randomUUID } from 'node:crypto';
import { AppError, type ProjectRecord } from '@palaver/contracts';
import { InProcessKeyValueStore, ManualClock } from '@palaver/platform';
import { describe, expect, it } from 'vitest';
import { MessageLimits } from './message-limits';

const project = (messagesPerMinute: number | null, monthlyMessages: number | null): ProjectRecord =>
  ({ id: randomUUID(), limits: { messagesPerMinute, monthlyMessages } }) as unknown as ProjectRecord;

/** What each send in turn comes to: 'sent', or the name of the limit that refused it. */
const outcomes = async (limits: MessageLimits, p: ProjectRecord, sends: number): Promise<string[]> => {
  const seen: string[] = [];
  for (let i = 0; i < sends; i++) {
    seen.push(
      await limits
        .within(p, async () => 'sent')
        .catch((err: unknown) => {
          if (!(err instanceof AppError)) throw err;
          return String(err.details?.limit);
        }),
    );
  }
  return seen;
};

/** The same project (the same counters) under other limits. */
const relimited = (p: ProjectRecord, messagesPerMinute: number, monthlyMessages: number): ProjectRecord =>
  ({ ...p, limits: { messagesPerMinute, monthlyMessages } }) as ProjectRecord;

describe('MessageLimits with both limits', () => {
  const setup = () => new MessageLimits(new InProcessKeyValueStore(new ManualClock()), new ManualClock());

  it('gives the minute back when the month refuses, so the next minute window is untouched', async () => {
    const limits = setup();
    const p = project(2, 1);
    expect(await outcomes(limits, p, 2)).toEqual(['sent', 'monthlyMessages']);
    // Had the refused send kept its minute, this project would now be at its minute limit (2).
    expect(await outcomes(limits, relimited(p, 2, 10), 1)).toEqual(['sent']);
  });

  it('gives the month back when the minute refuses, and names the minute', async () => {
    const limits = setup();
    const p = project(1, 2);
    expect(await outcomes(limits, p, 2)).toEqual(['sent', 'messagesPerMinute']);
    // Had the refused send kept its month, the monthly quota of 2 would now be used up.
    expect(await outcomes(limits, relimited(p, 10, 2), 2)).toEqual(['sent', 'monthlyMessages']);
  });

  it('names the minute when both refuse, and counts neither', async () => {
    expect(await outcomes(setup(), project(1, 1), 3)).toEqual(['sent', 'messagesPerMinute', 'messagesPerMinute']);
  });
});
