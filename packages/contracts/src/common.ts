import { z } from 'zod';

/** ISO 8601 with milliseconds and a Z suffix, as every v2 sample spells it. */
export const Timestamp = z.iso.datetime({ precision: 3 });
export type Timestamp = z.infer<typeof Timestamp>;

export const Uuid = z.uuid();

/** A number written other than in decimal digits (`1e3`, `0x10`, ` 12`, `1.0`): refused as such, not read as a value. */
const notDecimal = (value: unknown): boolean =>
  typeof value === 'string' && value !== '' && !/^[+-]?\d+$/.test(value) && Number.isFinite(Number(value));

/**
 * Query strings arrive as strings; these coerce and then apply the spec's bounds. Only decimal
 * digits are read as a number: a non-number is a 400 (wrong shape), a number out of bounds or
 * written otherwise (`1e3`) a 422.
 */
export const queryInt = (min: number, max?: number) => {
  const bounded = z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(min, `must be at least ${min}`);
  const base = max === undefined ? bounded : bounded.max(max, `must be at most ${max}`);
  return z.preprocess((value, ctx) => {
    if (!notDecimal(value)) return value;
    ctx.addIssue({ code: 'custom', message: 'must be an integer written in decimal digits', input: value });
    return z.NEVER;
  }, base);
};

/** The largest `offset` of a paged list: past it a list is read by narrowing its filters, not by skipping. */
export const MAX_OFFSET = 1_000_000;

/** offset: default 0, 0 to MAX_OFFSET; `null` (or the literal string "null") means the default. */
export const QueryOffset = z.preprocess(
  (v) => (v === null || v === 'null' || v === '' ? undefined : v),
  queryInt(0, MAX_OFFSET).default(0),
);

/** A model's name as the provider spells it (`gpt-4o-mini`, `org/model:tag`): one line, no spaces or control characters. */
export const ModelName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7E]+$/, 'must be a model identifier on one line: printable ASCII, no spaces or control characters');

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

/**
 * How a credential shown once (API key, agent token, personal API token) is listed after: its
 * last characters only, when it was made and when it was revoked (null while it works).
 */
export const credentialListing = { hint: z.string(), createdAt: Timestamp, revokedAt: Timestamp.nullable() };
