import { z } from 'zod';
import { HumanAgentRef, nonBlank, Timestamp, Uuid } from '../common';

/**
 * An internal note on a conversation: written by an agent for the team, never shown to the
 * visitor (not in /v2, surface B, the analytics feed, webhooks or the visitor's export).
 */
export const AgentNote = z.object({
  id: Uuid,
  conversationId: Uuid,
  author: HumanAgentRef,
  content: z.string(),
  createdAt: Timestamp,
});
export type AgentNote = z.infer<typeof AgentNote>;

export const AgentNoteBody = z.object({ content: nonBlank(z.string().min(1).max(10_000)) });
export type AgentNoteBody = z.infer<typeof AgentNoteBody>;

export const AgentNoteList = z.object({ data: z.array(AgentNote) });
export type AgentNoteList = z.infer<typeof AgentNoteList>;
