import { z } from 'zod';

export const Weekday = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
export type Weekday = z.infer<typeof Weekday>;

/** True when the runtime knows `name` as an IANA time zone (`Europe/Paris`, `UTC`). */
export const isIanaTimezone = (name: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** `HH:MM` on a 24-hour clock; `24:00` only closes a range. */
const TimeOfDay = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'must be a time HH:MM (00:00 to 24:00)');

/** `[from, to)`: a range that ends at or before its start runs overnight into the next day. */
export const OpeningRange = z
  .tuple([TimeOfDay, TimeOfDay])
  .refine(([from, to]) => from !== to, 'a range must not start and end at the same time')
  .refine(([from]) => from !== '24:00', 'a range cannot start at 24:00');
export type OpeningRange = z.infer<typeof OpeningRange>;

const IsoDate = z
  .string()
  .max(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
    'must be a real date',
  );

/**
 * The team's opening hours, in the project's time zone. A weekday without ranges is closed; a
 * holiday closes its whole local day (including the part of a range that ran over from the day
 * before). Absent (null) on a project: no hours, only the agents' presence counts.
 */
export const Availability = z.object({
  timezone: z.string().max(100).refine(isIanaTimezone, 'must be an IANA time zone, e.g. Europe/Paris'),
  weeklyHours: z.partialRecord(Weekday, z.array(OpeningRange).max(10)),
  holidays: z.array(IsoDate).max(400).default([]),
});
export type Availability = z.infer<typeof Availability>;

/** Told to a visitor who asks for a person when nobody can answer (no agent online, or outside the hours). */
export const DEFAULT_OFFLINE_MESSAGE =
  'Our team is not available right now. Your conversation is in our queue: leave your email and we will get back to you.';
