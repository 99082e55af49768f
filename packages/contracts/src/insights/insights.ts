import { z } from 'zod';
import { Timestamp, Uuid } from '../common';

/** An ISO date (`2026-03-01`, midnight UTC) or date-time with an offset. */
const Instant = z
  .string()
  .max(40)
  .pipe(z.union([z.iso.datetime({ offset: true }), z.iso.date()]))
  .transform((v) => new Date(v).toISOString());

/** `from` / `to` of an insights query: `from` inclusive, `to` exclusive; either may be left open. */
export const InsightsRange = z
  .object({ from: Instant.optional(), to: Instant.optional() })
  .refine((r) => !r.from || !r.to || Date.parse(r.from) < Date.parse(r.to), { message: 'from must be before to', path: ['from'] });
export type InsightsRange = z.infer<typeof InsightsRange>;

export const InsightsSummary = z.object({
  /** Conversations started in the range; every figure below is about these conversations. */
  conversations: z.number().int(),
  /** Their visitor, assistant and agent messages. */
  messages: z.number().int(),
  /** Those no person was asked for or took. */
  resolvedWithoutHuman: z.number().int(),
  /** Share (0..1) handed to a person; null without conversations. */
  handoffRate: z.number().nullable(),
  /** Likes among their liked or disliked replies (0..1, latest feedback per reply); null without any. */
  likeRate: z.number().nullable(),
  csat: z.object({ average: z.number().nullable(), responses: z.number().int() }),
  /** Median time from the handoff to the first agent message; null when no agent wrote. */
  medianFirstAgentReplyMs: z.number().nullable(),
});
export type InsightsSummary = z.infer<typeof InsightsSummary>;

export const UnansweredExample = z.object({ conversationId: Uuid, messageId: Uuid });
export const UnansweredGroup = z.object({
  id: Uuid,
  /** The group's most recent wording. */
  question: z.string(),
  count: z.number().int(),
  lastAskedAt: Timestamp,
  examples: z.array(UnansweredExample),
});
export type UnansweredGroup = z.infer<typeof UnansweredGroup>;
export const UnansweredList = z.object({ data: z.array(UnansweredGroup) });

export const AnswerUnansweredBody = z.object({
  answer: z.string().trim().min(1).max(20_000),
  /** The Q&A entry's question; the group's wording when left out. */
  question: z.string().trim().min(1).max(2000).optional(),
});
export type AnswerUnansweredBody = z.infer<typeof AnswerUnansweredBody>;
