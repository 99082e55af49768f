import { z } from 'zod';
import { nonBlank, Timestamp, Uuid } from '../common';

/** At most this many canned replies per project; one more is a 422 VALIDATION_ERROR (`details.limit`). */
export const CANNED_REPLIES_PER_PROJECT = 500;

/** What an agent types after `/` to insert the reply: lower-case letters, digits and dashes, unique in the project. */
export const CannedReplyShortcut = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1-32 lower-case letters, digits or dashes, not starting with a dash');

/** A project's saved answer, inserted by agents in the inbox. */
export const CannedReply = z.object({
  id: Uuid,
  projectId: Uuid,
  shortcut: CannedReplyShortcut,
  title: z.string(),
  content: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type CannedReply = z.infer<typeof CannedReply>;

export const CreateCannedReplyBody = z.object({
  shortcut: CannedReplyShortcut,
  title: nonBlank(z.string().min(1).max(200)),
  content: nonBlank(z.string().min(1).max(5000)),
});
export type CreateCannedReplyBody = z.infer<typeof CreateCannedReplyBody>;

export const UpdateCannedReplyBody = CreateCannedReplyBody.partial();
export type UpdateCannedReplyBody = z.infer<typeof UpdateCannedReplyBody>;

export const CannedReplyList = z.object({ data: z.array(CannedReply) });
export type CannedReplyList = z.infer<typeof CannedReplyList>;
