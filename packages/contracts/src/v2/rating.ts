import { z } from 'zod';
import { Timestamp, Uuid } from '../common';

export const MAX_RATING_COMMENT = 1_000;

/** A visitor's satisfaction with a conversation (CSAT), 1 (poor) to 5 (excellent). */
export const RatingScore = z.number().int().min(1).max(5);

export const RatingBody = z.object({
  score: RatingScore,
  comment: z.string().max(MAX_RATING_COMMENT).optional(),
});
export type RatingBody = z.infer<typeof RatingBody>;

export const Rating = z.object({
  object: z.literal('conversation.rating'),
  conversationId: Uuid,
  score: RatingScore,
  comment: z.string().nullable(),
  ratedAt: Timestamp,
});
export type Rating = z.infer<typeof Rating>;
