import type { Feedback, FinishReason, HumanAgent, PageContext, ReplySource, Usage } from '@palaver/contracts';

/** Every command names its conversation and tenant; visitor-scoped ones also their visitor. */
interface Addressed {
  conversationId: string;
  projectId: string;
}
interface VisitorAddressed extends Addressed {
  visitorId: string;
}

export type ConversationCommand =
  | (VisitorAddressed & { type: 'Start'; pageUrl: string | null })
  | (VisitorAddressed & {
      type: 'PostUserMessage';
      messageId: string;
      content: string;
      pageContext: PageContext | null;
      assistantMessageId: string;
      assistantId: string | null;
    })
  | (Addressed & {
      type: 'CompleteReply';
      messageId: string;
      text: string;
      finishReason: FinishReason;
      usage: Usage;
      sources?: ReplySource[];
    })
  | (Addressed & { type: 'FailReply'; messageId: string; error: string; partialText: string })
  | (VisitorAddressed & { type: 'SetFeedback'; messageId: string; feedback: Feedback | null })
  | (VisitorAddressed & { type: 'Close'; closeReason: string | null })
  | (Addressed & { type: 'Handoff'; humanAgent: HumanAgent })
  | (Addressed & { type: 'PostAgentMessage'; messageId: string; content: string });

export interface DecisionContext {
  /** ISO 8601 time of the decision. */
  now: string;
  /** A reply streaming for longer than this is taken as abandoned. */
  replyTimeoutMs: number;
}

export const REPLY_TIMED_OUT = 'reply timed out';
