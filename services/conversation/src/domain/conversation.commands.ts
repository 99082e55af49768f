import type { Feedback, FinishReason, HandoffSource, HumanAgentRef, PageContext, ReplySource, Usage } from '@palaver/contracts';

/** Every command names its conversation and tenant; visitor-scoped ones also their visitor. */
interface Addressed {
  conversationId: string;
  projectId: string;
}
interface VisitorAddressed extends Addressed {
  visitorId: string;
}

export type ConversationCommand =
  | (VisitorAddressed & { type: 'Start'; pageUrl: string | null; userAgent?: string | null })
  | (VisitorAddressed & {
      type: 'PostUserMessage';
      messageId: string;
      content: string;
      pageContext: PageContext | null;
      assistantMessageId: string;
      assistantId: string | null;
      /** Phrases that ask for a person (the project's handoff setting); null when handoff is off. */
      handoffTriggers: readonly string[] | null;
      /** Nobody can answer now: what a visitor asking for a person is told (else HANDOFF_NOTICE). */
      offlineNotice?: string | null;
    })
  | (Addressed & {
      type: 'CompleteReply';
      messageId: string;
      text: string;
      finishReason: FinishReason;
      usage: Usage;
      sources?: ReplySource[];
      grounded?: boolean;
      declined?: boolean;
    })
  | (Addressed & { type: 'FailReply'; messageId: string; error: string; partialText: string })
  | (VisitorAddressed & { type: 'SetFeedback'; messageId: string; feedback: Feedback | null })
  | (VisitorAddressed & { type: 'Close'; closeReason: string | null })
  | (VisitorAddressed & { type: 'Rate'; score: number; comment: string | null })
  | (VisitorAddressed & { type: 'CaptureContact'; email: string; name: string | null })
  | (Addressed & { type: 'RequestHandoff'; source: HandoffSource; messageId: string | null })
  /** `queue`: only a waiting conversation; `take`: any open one not held by another agent. */
  | (Addressed & { type: 'Claim'; humanAgent: HumanAgentRef; mode: 'queue' | 'take' })
  /** `humanAgentId` null: an admin call, which may release whatever holds it. */
  | (Addressed & { type: 'Release'; humanAgentId: string | null })
  /** The holder left the project: released, then waiting for another agent. */
  | (Addressed & { type: 'Requeue'; humanAgentId: string })
  /** `humanAgentId` null: an admin call. */
  | (Addressed & { type: 'AgentClose'; humanAgentId: string | null; closeReason: string | null })
  | (Addressed & { type: 'PostAgentMessage'; messageId: string; content: string; humanAgentId: string | null })
  /** An internal note: any agent of the project, whoever holds the conversation, in any status. */
  | (Addressed & { type: 'AddNote'; noteId: string; content: string; author: HumanAgentRef })
  | (VisitorAddressed & { type: 'RegenerateReply'; messageId: string; assistantId: string | null })
  /** Erasure (docs/privacy.md): the visitor asked, or the project's retention ran out. */
  | (Addressed & { type: 'EraseConversation'; reason: 'request' | 'retention' });

export interface DecisionContext {
  /** ISO 8601 time of the decision. */
  now: string;
  /** A reply streaming for longer than this is taken as abandoned. */
  replyTimeoutMs: number;
}

export { HANDOFF_NOTICE, REPLY_TIMED_OUT } from '@palaver/contracts';
