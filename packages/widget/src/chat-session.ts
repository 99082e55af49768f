import { PalaverApiError, type PalaverClient } from '@palaver/client';
import type { ChatWidgetConfig, Conversation, Feedback, PageContext, QuickPrompt } from '@palaver/contracts';
import { closeConversation, leaveContact, rateConversation } from './conversation-requests';
import { FailureReporter } from './failure-reporter';
import { LiveEvents } from './live-events';
import { OwnFeedback } from './own-feedback';
import { resumeReply, sendMessage, stopReply } from './reply-transport';
import { retryDelay, waitToRetry, worthRetrying } from './retry-wait';
import type { ReplyContext } from './session-context';
import { asksRating, FRESH, initialState, offersContact, type SessionState, type WidgetMessage, withMessage } from './session-state';
import { conversationPatch, eventPatch } from './session-transitions';
import { keyRefused, warnSiteOwner } from './site-owner-warning';
import { isTypingEvent, TypingSignals } from './typing-signals';
import { type KeyValueStorage, WidgetStorage } from './widget-storage';

export type { Handoff, Role, SessionState, TranscriptNote, VisitorRating, WidgetMessage } from './session-state';

export interface ChatSessionOptions {
  client: PalaverClient | null;
  storage?: KeyValueStorage | undefined;
  pageContext: () => PageContext | null;
  /** Without live events (an older gateway), the conversation is polled this often while open. */
  pollMs?: number;
}

/**
 * The widget's session: its state, which every part changes through `set`, and what the visitor
 * does (open, send, rate, close). Sending and streaming are in reply-transport, closing, rating
 * and leaving an email in conversation-requests, the pure changes of state in
 * session-transitions, following the conversation in live-events, typing both ways in
 * typing-signals, and what is kept in the page's storage in widget-storage.
 */
export class ChatSession {
  state: SessionState = initialState();
  private listeners = new Set<() => void>();
  private readonly live: LiveEvents | null;
  private isOpen = false;
  /** Aborted by dispose(): ends the waits between tries. */
  private readonly lifetime = new AbortController();
  private readonly failures: FailureReporter;
  private readonly stored: WidgetStorage;
  private readonly ownFeedback = new OwnFeedback();
  private readonly context: ReplyContext | null;
  private readonly typing: TypingSignals | null;

  constructor(private readonly options: ChatSessionOptions) {
    const { client } = options;
    const session = this;
    const state = {
      get state() {
        return session.state;
      },
      set: (patch: Partial<SessionState>) => this.set(patch),
    };
    this.failures = new FailureReporter(client, state, this.lifetime.signal);
    this.stored = new WidgetStorage(options.storage, client?.apiKey ?? 'preview');
    this.live = client
      ? new LiveEvents(
          client,
          {
            event: (event) => {
              if (isTypingEvent(event)) return this.typing?.agentTyped(event);
              const patch = eventPatch(this.state, event, this.ownFeedback);
              if (patch) this.set(patch);
            },
            poll: () => void this.refresh(),
            unavailable: () => this.follow(),
          },
          options.pollMs,
        )
      : null;
    this.context = client
      ? {
          client,
          get state() {
            return session.state;
          },
          set: (patch) => this.set(patch),
          report: (error) => this.failures.report(error),
          ensureConversation: () => this.ensureConversation(),
          pageContext: () => this.options.pageContext(),
          refresh: () => this.refresh(),
          refreshNow: (conversationId) => this.refreshNow(conversationId),
        }
      : null;
    this.typing = this.context ? new TypingSignals(this.context) : null;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<SessionState>): void {
    // Asked for a person just now: whether someone can answer may have changed since the load.
    if (patch.handoff && patch.handoff !== 'none' && this.state.handoff === 'none') void this.refreshTeam();
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  /**
   * Loads the project's widget configuration (an explicit one, in preview, wins). Nothing is shown
   * until it is loaded: while the service cannot be reached it tries again, and a refused key
   * (origin not allowed, invalid or revoked) leaves the page without a chat and warns the site owner.
   */
  async load(override?: { config?: Partial<ChatWidgetConfig>; quickPrompts?: QuickPrompt[] }, defaults?: ChatWidgetConfig): Promise<void> {
    const { client } = this.options;
    for (let attempt = 0; !this.lifetime.signal.aborted; attempt += 1) {
      try {
        const project = client ? await client.getProject() : null;
        const base = project?.chatWidgetConfig ?? defaults;
        if (!base) throw new Error('no configuration');
        this.set({
          phase: 'ready',
          config: { ...base, ...override?.config },
          quickPrompts: override?.quickPrompts ?? project?.quickPrompts ?? [],
          team: project?.humanAgents ?? null,
        });
        return;
      } catch (error) {
        if (!worthRetrying(error)) {
          if (error instanceof PalaverApiError) warnSiteOwner(error);
          this.set({ phase: 'disabled', config: null });
          return;
        }
        await waitToRetry(retryDelay(attempt), this.lifetime.signal);
      }
    }
  }

  setConfig(config: Partial<ChatWidgetConfig>, quickPrompts?: QuickPrompt[]): void {
    if (!this.state.config) return;
    this.set({ config: { ...this.state.config, ...config }, ...(quickPrompts ? { quickPrompts } : {}) });
  }

  /** On opening: the last conversation's history, then its live events while open. */
  async opened(): Promise<void> {
    this.isOpen = true;
    if (!this.state.historyLoaded && this.state.phase === 'ready' && this.options.client) {
      const stored = this.stored.lastConversation();
      this.set({ historyLoaded: true });
      if (stored) {
        try {
          this.applyConversation(await this.options.client.getConversation(stored));
          if (this.context) void resumeReply(this.context, stored);
        } catch (error) {
          if (error instanceof PalaverApiError && (error.status === 404 || error.status === 403) && !keyRefused(error))
            this.stored.forgetConversation();
          else this.failures.report(error);
        }
      }
    }
    this.follow();
  }

  /** The panel closed: the live events are still followed, so the launcher can count what arrives. */
  closed(): void {
    this.isOpen = false;
  }

  newConversation(): void {
    this.live?.stop();
    this.stored.forgetConversation();
    this.set({ ...FRESH, messages: [], notice: null, contact: null });
  }

  async closeConversation(reason: string): Promise<void> {
    if (this.context) await closeConversation(this.context, reason);
  }

  /** The conversation waits for a person nobody can be: the visitor may leave an email. */
  get offersContact(): boolean {
    return offersContact(this.state);
  }

  async leaveContact(email: string, name?: string): Promise<boolean> {
    return this.context ? leaveContact(this.context, email, name) : false;
  }

  /** Whether to ask "How did we do?": the conversation ended, or a person handed it back to the assistant. */
  get asksRating(): boolean {
    return asksRating(this.state);
  }

  /** Rates the conversation (1-5, an optional comment); rating again replaces it. */
  async rate(score: number, comment: string): Promise<boolean> {
    return this.context ? rateConversation(this.context, this.stored, score, comment) : false;
  }

  private async refreshTeam(): Promise<void> {
    try {
      const project = await this.options.client?.getProject();
      if (project?.humanAgents) this.set({ team: project.humanAgents });
    } catch {
      // the availability read at load stays
    }
  }

  dismissNotice(): void {
    if (!this.state.notice?.fatal) this.set({ notice: null });
  }

  /** Sends a visitor message and streams the reply (see reply-transport). */
  async send(content: string): Promise<boolean> {
    return this.context ? sendMessage(this.context, content) : false;
  }

  /** The visitor typed in the composer (the agent holding the conversation is told, now and then). */
  typed(): void {
    this.typing?.visitorTyped();
  }

  /** Stops the reply being streamed: the server keeps the text so far, and the stream ends. */
  async stop(): Promise<void> {
    if (this.context) await stopReply(this.context);
  }

  async feedback(message: WidgetMessage, value: Feedback): Promise<void> {
    if (!message.id || !this.options.client) return;
    const next = message.feedback === value ? null : value;
    this.ownFeedback.give(message.id, next);
    this.set({ messages: withMessage(this.state.messages, message.key, { feedback: next }) });
    try {
      await this.options.client.feedback(message.id, next);
    } catch (error) {
      this.ownFeedback.withdraw(message.id);
      this.set({ messages: withMessage(this.state.messages, message.key, { feedback: message.feedback }) });
      this.failures.report(error);
    }
  }

  private async ensureConversation(): Promise<string> {
    if (this.state.conversationId && !this.state.closed) return this.state.conversationId;
    const pageUrl = /^https?:/.test(location.href) ? location.href : undefined;
    const conversation = await this.options.client!.createConversation(pageUrl ? { pageUrl } : undefined);
    this.stored.rememberConversation(conversation.id);
    // After an ended conversation only what is being sent (not stored yet) moves to the new one.
    const earlier = this.state.closed ? this.state.messages.filter((message) => message.id === null) : this.state.messages;
    this.live?.stop();
    this.set({ ...FRESH, conversationId: conversation.id, messages: earlier });
    this.follow();
    return conversation.id;
  }

  /** The server's view of the conversation: status, agent, and messages (agent replies). */
  private async refresh(): Promise<void> {
    const { conversationId } = this.state;
    if (!conversationId || !this.options.client || this.state.sending) return;
    try {
      const conversation = await this.options.client.getConversation(conversationId);
      if (!this.state.sending && this.state.conversationId === conversationId) this.applyConversation(conversation);
    } catch {
      // polling is best effort; the next send reports errors
    }
  }

  /** As `refresh`, while a resumed reply still counts as sending. */
  private async refreshNow(conversationId: string): Promise<void> {
    try {
      this.applyConversation(await this.options.client!.getConversation(conversationId));
    } catch {
      // best effort, as polling
    }
  }

  private applyConversation(conversation: Conversation): void {
    const patch = conversationPatch(this.state, conversation, {
      feedback: this.ownFeedback,
      storedRating: (id) => this.stored.rating(id),
      polled: !!this.live?.polled,
      now: new Date(),
    });
    if (patch) this.set(patch);
  }

  /** Follows the open conversation's live events (polls it on a gateway without them). */
  private follow(): void {
    const conversationId = this.state.conversationId;
    if (!this.live || !conversationId || !this.isOpen) return;
    this.live.follow(conversationId);
  }

  dispose(): void {
    this.lifetime.abort();
    this.live?.stop();
    this.typing?.dispose();
    this.listeners.clear();
  }
}
