import type { ConversationLiveEvent, HumanAgent } from '@palaver/contracts';
import type { SessionContext } from './session-context';

/**
 * How long a typing signal lasts: the contract's TYPING_TTL_MS, repeated here because the widget
 * takes only types from the contracts (zod stays out of the bundle); a unit spec keeps them equal.
 */
export const TYPING_TTL_MS = 5000;
/** The visitor's typing is signalled at most this often per conversation (the server drops extras). */
export const TYPING_SEND_INTERVAL_MS = 2000;

/** The live event of the agent typing: ephemeral, with no SSE id. */
export interface AgentTypingEvent {
  type: 'typing';
  occurredAt: string;
  conversationId: string;
  by: 'agent';
  humanAgent: HumanAgent & { id?: string | null };
}

export type WidgetLiveEvent = ConversationLiveEvent | AgentTypingEvent;

export const isTypingEvent = (event: WidgetLiveEvent): event is AgentTypingEvent => event.type === 'typing';

type TypingClient = { sendTyping(conversationId: string): Promise<void> };

/** Typing, both ways: the visitor's told to the agent holding the conversation, the agent's shown to the visitor. */
export class TypingSignals {
  private lastSent: { conversationId: string; at: number } | null = null;
  private hideTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly session: SessionContext) {}

  /**
   * The visitor typed in the composer. Only a person holding the conversation is told (the AI
   * needs no warning), at most once per TYPING_SEND_INTERVAL_MS; a failure is not the visitor's concern.
   */
  visitorTyped(): void {
    const { conversationId, handoff, closed } = this.session.state;
    if (!conversationId || handoff !== 'claimed' || closed) return;
    const now = Date.now();
    if (this.lastSent?.conversationId === conversationId && now - this.lastSent.at < TYPING_SEND_INTERVAL_MS) return;
    this.lastSent = { conversationId, at: now };
    (this.session.client as unknown as TypingClient).sendTyping(conversationId).catch(() => {
      // best effort: the next keystroke after the interval tries again
    });
  }

  /** The agent types: shown for TYPING_TTL_MS from now, unless their message comes first (see eventPatch). */
  agentTyped(event: AgentTypingEvent): void {
    if (event.by !== 'agent' || event.conversationId !== this.session.state.conversationId) return;
    clearTimeout(this.hideTimer);
    const agent: HumanAgent = { name: event.humanAgent.name, image: event.humanAgent.image };
    const shown = this.session.state.agentTyping;
    // A repeated signal changes nothing on screen, so assistive technology hears it once.
    if (shown?.name !== agent.name || shown?.image !== agent.image) this.session.set({ agentTyping: agent });
    this.hideTimer = setTimeout(() => {
      if (this.session.state.agentTyping) this.session.set({ agentTyping: null });
    }, TYPING_TTL_MS);
  }

  dispose(): void {
    clearTimeout(this.hideTimer);
  }
}
