import type { Availability, OpeningRange, Weekday } from '@palaver/contracts';

const WEEKDAYS: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const formats = new Map<string, Intl.DateTimeFormat>();

interface LocalDay {
  date: string;
  weekday: Weekday;
  /** Minutes since the local midnight, on the wall clock. */
  minutes: number;
}

/**
 * Whether the team is open at `instant` by its weekly hours and holidays, read on the wall clock
 * of the project's time zone (so a DST change moves nothing: 09:00 stays 09:00). A range `[from,
 * to)` with `to` at or before `from` runs overnight: its part after midnight belongs to the day it
 * started. A holiday closes its local day, including what a range of the day before runs into it.
 */
export const isWithinOpeningHours = (availability: Availability, instant: Date): boolean => {
  const today = localDay(availability.timezone, instant);
  const holidays = new Set(availability.holidays);
  if (holidays.has(today.date)) return false;
  for (const range of availability.weeklyHours[today.weekday] ?? []) {
    const [from, to] = range.map(minutesOf) as [number, number];
    if (to > from ? today.minutes >= from && today.minutes < to : today.minutes >= from) return true;
  }
  const yesterday = WEEKDAYS[(WEEKDAYS.indexOf(today.weekday) + 6) % 7] as Weekday;
  return (availability.weeklyHours[yesterday] ?? []).some((range: OpeningRange) => {
    const [from, to] = range.map(minutesOf) as [number, number];
    return to <= from && today.minutes < to;
  });
};

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const localDay = (timezone: string, instant: Date): LocalDay => {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    formats.set(timezone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = part.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: String(parts.weekday).slice(0, 3).toLowerCase() as Weekday,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
};
