import { type AgentTypingEvent, type ConversationStreamEvent, TYPING_MIN_INTERVAL_MS, TYPING_TTL_MS } from '@palaver/client';
import type { HumanAgent } from '@palaver/contracts';
import type { SessionContext } from './session-context';

export const isTypingEvent = (event: ConversationStreamEvent): event is AgentTypingEvent => event.type === 'typing';

/** Typing, both ways: the visitor's told to the agent holding the conversation, the agent's shown to the visitor. */
export class TypingSignals {
  private lastSent: { conversationId: string; at: number } | null = null;
  private hideTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly session: SessionContext) {}

  /**
   * The visitor typed in the composer. Only a person holding the conversation is told (the AI
   * needs no warning), at most once per TYPING_MIN_INTERVAL_MS; a failure is not the visitor's concern.
   */
  visitorTyped(): void {
    const { conversationId, handoff, closed } = this.session.state;
    if (!conversationId || handoff !== 'claimed' || closed) return;
    const now = Date.now();
    if (this.lastSent?.conversationId === conversationId && now - this.lastSent.at < TYPING_MIN_INTERVAL_MS) return;
    this.lastSent = { conversationId, at: now };
    this.session.client.sendTyping(conversationId).catch(() => {
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
