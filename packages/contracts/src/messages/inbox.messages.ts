import { z } from 'zod';
import { HumanAgentRef, Uuid } from '../common';
import { AgentNote, AgentNoteList } from '../inbox/agent-note';
import { CannedReply, CannedReplyList, CreateCannedReplyBody, UpdateCannedReplyBody } from '../inbox/canned-reply';
import { ConversationVisitorContext, VisitorIdentityInfo } from '../inbox/visitor-context';
import { Contact } from '../v2/contact';
import { ActorField } from './accounts.messages';
import { Ack, defineMessage } from './define';

const CannedReplyRef = z.object({ projectId: Uuid, cannedReplyId: Uuid });
const ConversationRef = z.object({ projectId: Uuid, conversationId: Uuid });

/** The inbox's messages: canned replies and the visitor's identity (identity), notes and the visitor panel (conversation). */
export const InboxMessages = {
  /** The project's canned replies, sorted by shortcut. */
  listCannedReplies: defineMessage('identity.qry.list-canned-replies.v1', z.object({ projectId: Uuid }), CannedReplyList),
  /** CONFLICT on a shortcut the project already has; VALIDATION_ERROR past CANNED_REPLIES_PER_PROJECT. */
  createCannedReply: defineMessage(
    'identity.cmd.create-canned-reply.v1',
    z.object({ actor: ActorField, projectId: Uuid, body: CreateCannedReplyBody }),
    CannedReply,
  ),
  /** NOT_FOUND for another project's or an unknown id; CONFLICT on a taken shortcut. */
  updateCannedReply: defineMessage(
    'identity.cmd.update-canned-reply.v1',
    CannedReplyRef.extend({ actor: ActorField, patch: UpdateCannedReplyBody }),
    CannedReply,
  ),
  deleteCannedReply: defineMessage('identity.cmd.delete-canned-reply.v1', CannedReplyRef.extend({ actor: ActorField }), Ack),
  /** What the project knows of who the visitor is, and the contact they last left (NOT_FOUND for an unknown visitor). */
  visitorIdentity: defineMessage(
    'identity.qry.visitor-identity.v1',
    z.object({ projectId: Uuid, visitorId: Uuid }),
    z.object({ identity: VisitorIdentityInfo, contact: Contact.nullable() }),
  ),

  /** Any agent of the project, holding the conversation or not (CONVERSATION_NOT_FOUND for another project's). */
  addNote: defineMessage(
    'conversation.cmd.add-note.v1',
    ConversationRef.extend({ noteId: Uuid, content: z.string().min(1).max(10_000), author: HumanAgentRef }),
    AgentNote,
  ),
  /** The conversation's notes, oldest first. */
  listNotes: defineMessage('conversation.qry.list-notes.v1', ConversationRef, AgentNoteList),
  /** The conversation's side of the visitor panel. */
  visitorContext: defineMessage('conversation.qry.visitor-context.v1', ConversationRef, ConversationVisitorContext),
} as const;
