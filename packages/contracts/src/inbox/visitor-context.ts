import { z } from 'zod';
import { Timestamp, Uuid } from '../common';
import { Contact } from '../v2/contact';
import { ConversationStatus } from '../v2/conversation';

/** The longest User-Agent kept on a conversation; a longer header is cut there. */
export const MAX_USER_AGENT = 500;
/** Other conversations of the visitor shown in the inbox's visitor panel. */
export const PREVIOUS_CONVERSATIONS_LIMIT = 10;

/** Who the visitor is, as far as the project knows: verified when a user token or surface B named them. */
export const VisitorIdentityInfo = z.object({
  verified: z.boolean(),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
});
export type VisitorIdentityInfo = z.infer<typeof VisitorIdentityInfo>;

export const PreviousConversation = z.object({
  id: Uuid,
  title: z.string().nullable(),
  status: ConversationStatus,
  createdAt: Timestamp,
  lastInteractionAt: Timestamp,
});
export type PreviousConversation = z.infer<typeof PreviousConversation>;

/** The conversation's side of the visitor panel (the conversation service answers it). */
export const ConversationVisitorContext = z.object({
  visitorId: Uuid,
  contact: Contact.nullable(),
  /** From the latest visitor message's pageContext. */
  page: z.object({ url: z.string().nullable(), title: z.string().nullable() }),
  /** The User-Agent header of the request that created the conversation (personal data, sealed). */
  userAgent: z.string().nullable(),
  /** The same visitor's other conversations, newest first, at most PREVIOUS_CONVERSATIONS_LIMIT. */
  previousConversations: z.array(PreviousConversation),
});
export type ConversationVisitorContext = z.infer<typeof ConversationVisitorContext>;

/** `GET /agent/v1/conversations/{id}/visitor`: the inbox's visitor panel. */
export const VisitorContext = ConversationVisitorContext.extend({ identity: VisitorIdentityInfo });
export type VisitorContext = z.infer<typeof VisitorContext>;
