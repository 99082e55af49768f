import { z } from 'zod';

/** ISO 8601 with milliseconds and a Z suffix, as every v2 sample spells it. */
export const Timestamp = z.iso.datetime({ precision: 3 });
export type Timestamp = z.infer<typeof Timestamp>;

export const Uuid = z.uuid();

/** Query strings arrive as strings; these coerce and then apply the spec's bounds. */
export const queryInt = (min: number, max?: number) => {
  const base = z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(min);
  return max === undefined ? base : base.max(max);
};

/** offset: default 0, at least 0; `null` (or the literal string "null") means the default. */
export const QueryOffset = z.preprocess((v) => (v === null || v === 'null' || v === '' ? undefined : v), queryInt(0).default(0));

/** Text that must say something: whitespace alone is a 422 (`reason` says why). */
export const nonBlank = <S extends z.ZodString>(schema: S) =>
  schema.refine((value) => value.trim().length > 0, { message: 'must not be blank (whitespace only)' });

/** Length bounds of strings clients send (docs/api.md, "Limits"): nothing unbounded is stored. */
export const MAX_URL = 2048;
export const MAX_NAME = 200;
export const MAX_KEY = 200;

/**
 * The one schema of every URL a client sends (documents, avatars, icons, page URLs...): an
 * absolute `http:` or `https:` URL. Anything else (`javascript:`, `data:`, `vbscript:`...) is a
 * 422, because these URLs end up as links and images in the widget and the dashboard, where
 * another scheme would run script (stored XSS). Response schemas keep plain strings: what was
 * stored before this check still reads.
 */
export const httpUrl = (max: number = MAX_URL) => z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(max);

export const HumanAgent = z.object({ name: z.string().max(MAX_NAME).nullable(), image: z.string().max(MAX_URL).nullable() });
export type HumanAgent = z.infer<typeof HumanAgent>;

/** The agent who holds a human-handled conversation; `id` is null for a handoff made by an admin call with no agent identity. */
export const HumanAgentRef = z.object({
  id: Uuid.nullable(),
  name: z.string().max(200).nullable(),
  image: z.string().max(2000).nullable(),
});
export type HumanAgentRef = z.infer<typeof HumanAgentRef>;
