import { z } from 'zod';
import { httpUrl, Timestamp, Uuid } from '../common';
import { QnaAuthor } from '../v2/qna';
import { ProductFields } from '../v2/search';

export const QnaBody = z.object({
  question: z.string().min(1).max(2000),
  answer: z.string().min(1).max(20_000),
  createdBy: QnaAuthor.extend({ image: httpUrl().nullable() }).optional(),
});
export type QnaBody = z.infer<typeof QnaBody>;
export const UpdateQnaBody = QnaBody.partial();
export type UpdateQnaBody = z.infer<typeof UpdateQnaBody>;

export const DocumentBody = z
  .object({
    title: z.string().min(1).max(500),
    url: httpUrl(),
    path: z.string().max(2000).optional(),
    content: z.string().min(1).max(2_000_000),
  })
  .extend(ProductFields.shape)
  .extend({ imageUrl: httpUrl().optional() });
export type DocumentBody = z.infer<typeof DocumentBody>;
export const UpdateDocumentBody = DocumentBody.partial();
export type UpdateDocumentBody = z.infer<typeof UpdateDocumentBody>;

/** As stored: URLs read as the strings they are (see `httpUrl`). */
export const DocumentRecord = DocumentBody.extend({
  url: z.string(),
  imageUrl: z.string().optional(),
  id: Uuid,
  projectId: Uuid,
  path: z.string(),
  chunkCount: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type DocumentRecord = z.infer<typeof DocumentRecord>;
