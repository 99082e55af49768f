import { Availability } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { isWithinOpeningHours } from './opening-hours';

const hours = (input: unknown) => Availability.parse(input);

/** Open at each of `open` and closed at each of `closed` (UTC instants). */
const expectOpenAt = (availability: Availability, { open, closed }: { open: string[]; closed: string[] }): void => {
  const isOpen = (iso: string) => isWithinOpeningHours(availability, new Date(iso));
  expect({ open: open.filter((iso) => !isOpen(iso)), closed: closed.filter(isOpen) }).toEqual({ open: [], closed: [] });
};

describe('isWithinOpeningHours', () => {
  const office = hours({
    timezone: 'Europe/Paris',
    weeklyHours: {
      mon: [
        ['09:00', '12:00'],
        ['13:00', '17:00'],
      ],
      tue: [['09:00', '17:00']],
      sat: [['10:00', '24:00']],
    },
    holidays: ['2026-12-25'],
  });

  it('reads the ranges on the wall clock of the time zone, start included and end excluded', () => {
    // Monday 7 December 2026: Paris is UTC+1.
    expectOpenAt(office, {
      open: ['2026-12-07T08:00:00Z', '2026-12-07T12:00:00Z'],
      closed: ['2026-12-07T07:59:00Z', '2026-12-07T11:30:00Z', '2026-12-07T16:00:00Z'],
    });
    // A weekday without ranges is closed; 24:00 closes at midnight.
    expectOpenAt(office, { open: ['2026-12-12T22:59:00Z'], closed: ['2026-12-09T10:00:00Z', '2026-12-12T23:00:00Z'] });
  });

  it('keeps 09:00 at 09:00 across a DST change', () => {
    // Monday 23 March 2026 (UTC+1) and Monday 30 March 2026 (UTC+2, after the change of 29 March).
    expectOpenAt(office, { open: ['2026-03-23T08:00:00Z', '2026-03-30T07:00:00Z'], closed: ['2026-03-30T06:59:00Z'] });
    const newYork = hours({ timezone: 'America/New_York', weeklyHours: { sun: [['01:00', '04:00']] } });
    // Sunday 8 March 2026: 02:00 does not exist; 01:59 EST then 03:00 EDT are both open.
    expectOpenAt(newYork, { open: ['2026-03-08T06:59:00Z', '2026-03-08T07:00:00Z'], closed: ['2026-03-08T08:00:00Z'] });
  });

  it('closes on a holiday, in the local date', () => {
    // Friday 25 December 2026 is a holiday; Thursday the 24th is not (and has no hours anyway).
    const everyDay = hours({
      timezone: 'Asia/Tokyo',
      weeklyHours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]])),
      holidays: ['2026-12-25'],
    });
    // 15:30 UTC on the 24th is 00:30 on the 25th in Tokyo.
    expectOpenAt(everyDay, { open: ['2026-12-24T14:59:00Z', '2026-12-25T15:00:00Z'], closed: ['2026-12-24T15:30:00Z'] });
  });

  it('runs an overnight range into the next day, unless that day is a holiday', () => {
    const nights = hours({
      timezone: 'UTC',
      weeklyHours: { fri: [['22:00', '06:00']], sun: [['20:00', '02:00']] },
      holidays: ['2026-12-14'],
    });
    expectOpenAt(nights, {
      open: ['2026-12-11T22:00:00Z', '2026-12-12T05:59:00Z'],
      closed: ['2026-12-11T21:59:00Z', '2026-12-12T06:00:00Z'],
    });
    // Sunday 13th 20:00 runs into Monday 14th, a holiday.
    expectOpenAt(nights, { open: ['2026-12-13T23:00:00Z'], closed: ['2026-12-14T01:00:00Z'] });
  });
});

describe('Availability', () => {
  it('checks the time zone with Intl, the times, the ranges and the dates', () => {
    const base = { timezone: 'Europe/Paris', weeklyHours: {} };
    expect(Availability.safeParse(base).success).toBe(true);
    expect(Availability.safeParse({ ...base, timezone: 'Mars/Olympus_Mons' }).success).toBe(false);
    expect(Availability.safeParse({ ...base, weeklyHours: { mon: [['9:00', '17:00']] } }).success).toBe(false);
    expect(Availability.safeParse({ ...base, weeklyHours: { mon: [['09:00', '09:00']] } }).success).toBe(false);
    expect(Availability.safeParse({ ...base, weeklyHours: { monday: [['09:00', '17:00']] } }).success).toBe(false);
    expect(Availability.safeParse({ ...base, holidays: ['2026-02-30'] }).success).toBe(false);
    expect(Availability.safeParse({ ...base, holidays: ['2026-02-28'] }).success).toBe(true);
  });
});
