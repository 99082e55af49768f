import { z } from 'zod';
import { Timestamp } from '../common';

/** `POST /v2/conversations/{id}/contact`: how the team can reach the visitor when nobody could answer. */
export const ContactBody = z.object({
  email: z.string().trim().max(320).pipe(z.email('must be an email address')),
  name: z.string().trim().min(1).max(200).optional(),
});
export type ContactBody = z.infer<typeof ContactBody>;

export const Contact = z.object({ email: z.string(), name: z.string().nullable(), capturedAt: Timestamp });
export type Contact = z.infer<typeof Contact>;

/** What `GET /v2/projects/current` says of the people behind the widget. */
export const HumanAgentsAvailability = z.object({
  /** The project lets visitors ask for a person. */
  enabled: z.boolean(),
  /** Someone can answer now: an agent is online, within the opening hours (if any). */
  available: z.boolean(),
});
export type HumanAgentsAvailability = z.infer<typeof HumanAgentsAvailability>;
