import { z } from 'zod';
import { MAX_NAME, MAX_URL, QueryOffset, queryInt, Timestamp, Uuid } from '../common';

export const QnaAuthor = z.object({ name: z.string().max(MAX_NAME).nullable(), image: z.string().max(MAX_URL).nullable() });

export const Qna = z.object({
  object: z.literal('qna'),
  id: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  question: z.string(),
  answer: z.string(),
  createdBy: QnaAuthor.optional(),
});
export type Qna = z.infer<typeof Qna>;

export const ListQnasQuery = z.object({
  query: z.string().max(300).optional(),
  limit: queryInt(1, 100).default(10),
  offset: QueryOffset,
});
export type ListQnasQuery = z.infer<typeof ListQnasQuery>;
