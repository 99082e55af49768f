import type { PalaverSource } from '@palaver/client';
import type {
  ChatWidgetConfig,
  Conversation,
  Feedback,
  HumanAgent,
  HumanAgentsAvailability,
  Message,
  QuickPrompt,
} from '@palaver/contracts';
import type { Notice } from './error-notice';

export type Role = Message['role'];

export interface WidgetMessage {
  /** Stable key for rendering. */
  key: string;
  /** The stored message id (feedback needs it); null until the server names it. */
  id: string | null;
  role: Role;
  text: string;
  status: 'streaming' | 'complete' | 'error';
  feedback: Feedback | null;
  agent: HumanAgent | null;
  sources: PalaverSource[];
  /** When it was stored (ISO); null until the server names it. */
  createdAt: string | null;
}

/** Who answers: the AI, nobody yet (queued for a person), or the agent who claimed it. */
export type Handoff = 'none' | 'waiting' | 'claimed';

/** A line of the transcript that is no message ("Ada joined"), placed by its time. */
export interface TranscriptNote {
  key: string;
  text: string;
  at: string;
}

export interface SessionState {
  /** `disabled`: nothing is shown, the configuration could not be had (mostly a refused key: origin not allowed, invalid or revoked). */
  phase: 'loading' | 'ready' | 'disabled';
  config: ChatWidgetConfig | null;
  quickPrompts: QuickPrompt[];
  conversationId: string | null;
  closed: boolean;
  handoff: Handoff;
  /** The agent who claimed the conversation (handoff `claimed`), else null. */
  humanAgent: HumanAgent | null;
  /** Set when a person handed the conversation back to the assistant: the visitor may rate it. */
  released: boolean;
  notes: TranscriptNote[];
  messages: WidgetMessage[];
  sending: boolean;
  notice: Notice | null;
  historyLoaded: boolean;
  /** Whether a person can answer (from the project); null when the gateway does not say. */
  team: HumanAgentsAvailability | null;
  /** The email the visitor left on this conversation, once left. */
  contact: string | null;
  /** The visitor's rating of this conversation, once given (kept in storage per conversation). */
  rating: VisitorRating | null;
  /** The agent typing a message now (their typing signal, for its few seconds), else null. */
  agentTyping: HumanAgent | null;
}

export interface VisitorRating {
  score: number;
  comment: string | null;
}

/** A conversation's state before anything happened in it. */
export const FRESH = {
  conversationId: null,
  closed: false,
  handoff: 'none',
  humanAgent: null,
  released: false,
  notes: [],
  rating: null,
  agentTyping: null,
} satisfies Partial<SessionState>;

/** The widget's state before its configuration is loaded. */
export const initialState = (): SessionState => ({
  ...FRESH,
  phase: 'loading',
  config: null,
  quickPrompts: [],
  messages: [],
  sending: false,
  notice: null,
  historyLoaded: false,
  team: null,
  contact: null,
});

export const fromStored = (message: Message): WidgetMessage => ({
  key: message.id,
  id: message.id,
  role: message.role,
  text: message.parts.map((part) => part.text).join(''),
  status: message.status ?? 'complete',
  feedback: message.feedback,
  agent: typeof message.metadata === 'object' ? message.metadata.humanAgent : null,
  sources: typeof message.metadata === 'object' ? (message.metadata.sources ?? []) : [],
  createdAt: message.createdAt,
});

export const handoffOf = (conversation: Conversation): { handoff: Handoff; humanAgent: HumanAgent | null } => {
  if (!conversation.isHumanHandled) return { handoff: 'none', humanAgent: null };
  return conversation.humanAgent ? { handoff: 'claimed', humanAgent: conversation.humanAgent } : { handoff: 'waiting', humanAgent: null };
};

/** The transcript line of an agent taking the conversation. */
export const joinedNote = (key: string, agent: HumanAgent | null, at: string): TranscriptNote => ({
  key,
  text: `${agent?.name ?? 'A team member'} joined`,
  at,
});

/** The stored message, keeping the local render key and the sources seen while streaming. */
export const merged = (stored: Message, known: WidgetMessage): WidgetMessage => {
  const next = fromStored(stored);
  return { ...next, key: known.key, sources: next.sources.length > 0 ? next.sources : known.sources };
};

let localKeys = 0;
/** A render key for a message the server has not named yet. */
export const localKey = (): string => `local-${++localKeys}`;

/** The visitor's message as drawn the moment it is sent. */
export const pendingMessage = (key: string, text: string): WidgetMessage => ({
  key,
  id: null,
  role: 'user',
  text,
  status: 'complete',
  feedback: null,
  agent: null,
  sources: [],
  createdAt: null,
});

/** The reply on its way, drawn from the moment the visitor sends: typing dots until its first text. */
export const placeholder = (key: string): WidgetMessage => ({
  key,
  id: null,
  role: 'assistant',
  text: '',
  status: 'streaming',
  feedback: null,
  agent: null,
  sources: [],
  createdAt: null,
});

/** The messages with the one of `key` changed by `patch`. */
export const withMessage = (messages: WidgetMessage[], key: string, patch: Partial<WidgetMessage>): WidgetMessage[] =>
  messages.map((message) => (message.key === key ? { ...message, ...patch } : message));

/** The conversation waits for a person nobody can be: the visitor may leave an email. */
export const offersContact = ({ handoff, team, contact, closed, conversationId }: SessionState): boolean =>
  !!conversationId && handoff === 'waiting' && !!team?.enabled && !team.available && !contact && !closed;

/** Whether to ask "How did we do?": the conversation ended, or a person handed it back to the assistant. */
export const asksRating = ({ conversationId, closed, released, messages }: SessionState): boolean =>
  !!conversationId && (closed || released) && messages.length > 0;
