import { PalaverApiError, type PalaverClient, type PalaverSource, type PalaverUiChunk, storedMessageId } from '@palaver/client';
import type {
  ChatWidgetConfig,
  Conversation,
  ConversationLiveEvent,
  Feedback,
  HumanAgent,
  HumanAgentsAvailability,
  Message,
  PageContext,
  QuickPrompt,
} from '@palaver/contracts';
import { type Notice, noticeFor } from './error-notice';
import { retryDelay, waitToRetry, worthRetrying } from './retry-wait';
import { keyRefused, warnSiteOwner } from './site-owner-warning';

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
}

export interface VisitorRating {
  score: number;
  comment: string | null;
}

export interface ChatSessionOptions {
  client: PalaverClient | null;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  pageContext: () => PageContext | null;
  /** Without live events (an older gateway), the conversation is polled this often while open. */
  pollMs?: number;
}

const fromStored = (message: Message): WidgetMessage => ({
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

const handoffOf = (conversation: Conversation): { handoff: Handoff; humanAgent: HumanAgent | null } => {
  if (!conversation.isHumanHandled) return { handoff: 'none', humanAgent: null };
  return conversation.humanAgent ? { handoff: 'claimed', humanAgent: conversation.humanAgent } : { handoff: 'waiting', humanAgent: null };
};

/** The transcript line of an agent taking the conversation. */
const joinedNote = (key: string, agent: HumanAgent | null, at: string): TranscriptNote => ({
  key,
  text: `${agent?.name ?? 'A team member'} joined`,
  at,
});

/** The stored message, keeping the local render key and the sources seen while streaming. */
const merged = (stored: Message, known: WidgetMessage): WidgetMessage => {
  const next = fromStored(stored);
  return { ...next, key: known.key, sources: next.sources.length > 0 ? next.sources : known.sources };
};

const RATING_KEY = 'palaver.rating.';

let localKeys = 0;
const localKey = () => `local-${++localKeys}`;

/** The reply on its way, drawn from the moment the visitor sends: typing dots until its first text. */
const placeholder = (key: string): WidgetMessage => ({
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

/** A conversation's state before anything happened in it. */
const FRESH = {
  conversationId: null,
  closed: false,
  handoff: 'none',
  humanAgent: null,
  released: false,
  notes: [],
  rating: null,
} satisfies Partial<SessionState>;

/**
 * The widget's state and every call it makes, apart from rendering: session, the stored last
 * conversation, sending with a streamed reply, feedback, closing, and agent messages.
 */
export class ChatSession {
  state: SessionState = {
    phase: 'loading',
    config: null,
    quickPrompts: [],
    conversationId: null,
    closed: false,
    handoff: 'none',
    humanAgent: null,
    released: false,
    notes: [],
    messages: [],
    sending: false,
    notice: null,
    historyLoaded: false,
    team: null,
    contact: null,
    rating: null,
  };
  private listeners = new Set<() => void>();
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private live: AbortController | null = null;
  private liveUnavailable = false;
  private isOpen = false;
  /** Aborted by dispose(): ends the waits between tries. */
  private readonly lifetime = new AbortController();
  private reconnecting = false;
  private readonly storageKey: string;
  /**
   * Feedback the visitor gave, by message id, until the server shows it: a snapshot taken before
   * (a live event of the reply, a poll in flight) must not take it back on screen.
   */
  private readonly ownFeedback = new Map<string, Feedback | null>();

  constructor(private readonly options: ChatSessionOptions) {
    this.storageKey = `palaver.conversation.${options.client?.apiKey ?? 'preview'}`;
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

  private updateMessage(key: string, patch: Partial<WidgetMessage>): void {
    this.set({ messages: this.state.messages.map((message) => (message.key === key ? { ...message, ...patch } : message)) });
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
      const stored = this.read();
      this.set({ historyLoaded: true });
      if (stored) {
        try {
          this.applyConversation(await this.options.client.getConversation(stored));
          void this.resumeReply(stored);
        } catch (error) {
          if (error instanceof PalaverApiError && (error.status === 404 || error.status === 403) && !keyRefused(error)) this.forget();
          else this.report(error);
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
    this.unfollow();
    this.forget();
    this.set({ ...FRESH, messages: [], notice: null, contact: null });
  }

  async closeConversation(reason: string): Promise<void> {
    const { conversationId } = this.state;
    if (!conversationId || !this.options.client) return;
    try {
      await this.options.client.closeConversation(conversationId, reason || undefined);
      this.set({ closed: true, notice: null });
    } catch (error) {
      this.report(error);
    }
  }

  /** The conversation waits for a person nobody can be: the visitor may leave an email. */
  get offersContact(): boolean {
    const { handoff, team, contact, closed, conversationId } = this.state;
    return !!conversationId && handoff === 'waiting' && !!team?.enabled && !team.available && !contact && !closed;
  }

  async leaveContact(email: string, name?: string): Promise<boolean> {
    const { conversationId } = this.state;
    if (!conversationId || !this.options.client) return false;
    try {
      const contact = await this.options.client.leaveContact(conversationId, name ? { email, name } : { email });
      this.set({ contact: contact.email, notice: { text: `Thanks! We will email you at ${contact.email}.`, info: true } });
      return true;
    } catch (error) {
      this.report(error);
      return false;
    }
  }

  /** Whether to ask "How did we do?": the conversation ended, or a person handed it back to the assistant. */
  get asksRating(): boolean {
    const { conversationId, closed, released, messages } = this.state;
    return !!conversationId && (closed || released) && messages.length > 0;
  }

  /** Rates the conversation (1-5, an optional comment); rating again replaces it. */
  async rate(score: number, comment: string): Promise<boolean> {
    const { conversationId } = this.state;
    if (!conversationId || !this.options.client) return false;
    const text = comment.trim();
    try {
      const rating = await this.options.client.rateConversation(conversationId, text ? { score, comment: text } : { score });
      const kept: VisitorRating = { score: rating.score, comment: rating.comment };
      if (this.state.conversationId === conversationId) this.set({ rating: kept });
      try {
        this.options.storage?.setItem(`${RATING_KEY}${conversationId}`, JSON.stringify(kept));
      } catch {
        // no storage: the thanks last as long as the page
      }
      return true;
    } catch (error) {
      this.report(error);
      return false;
    }
  }

  private storedRating(conversationId: string): VisitorRating | null {
    try {
      const raw = this.options.storage?.getItem(`${RATING_KEY}${conversationId}`);
      const parsed = raw ? (JSON.parse(raw) as VisitorRating) : null;
      return parsed && typeof parsed.score === 'number' ? parsed : null;
    } catch {
      return null;
    }
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

  /**
   * Sends a visitor message and streams the reply. The message and the reply's typing dots show
   * at once. The reply is one message whichever comes first, this stream or the conversation's
   * live events: both name it by its stored id, and the second updates what the first drew.
   */
  async send(content: string): Promise<boolean> {
    const text = content.trim();
    const { client } = this.options;
    const { notice } = this.state;
    if (!text || !client || this.state.sending || this.state.phase !== 'ready') return false;
    if (notice?.retryAt && notice.retryAt > Date.now()) return false;
    const userKey = localKey();
    let replyKey = localKey();
    const pending: WidgetMessage = {
      key: userKey,
      id: null,
      role: 'user',
      text,
      status: 'complete',
      feedback: null,
      agent: null,
      sources: [],
      createdAt: null,
    };
    // A human agent answers a conversation they handle: no assistant reply to wait for.
    const drafts = this.state.handoff !== 'none' && !this.state.closed ? [pending] : [pending, placeholder(replyKey)];
    this.set({ sending: true, notice: null, messages: [...this.state.messages, ...drafts] });
    let accepted = false;
    try {
      const conversationId = await this.ensureConversation();
      const reply = await client.streamMessage(conversationId, { content: text, pageContext: this.options.pageContext() });
      accepted = true;
      if (reply.type === 'queued') {
        // The header says who answers ("Waiting for a person", then the agent): no notice over the transcript.
        this.set({
          messages: this.state.messages.filter((message) => message.key !== replyKey),
          ...(this.state.handoff === 'none' ? { handoff: 'waiting' as const, released: false } : {}),
        });
        return true;
      }
      const drawn = { key: replyKey };
      try {
        await this.streamReply(reply.chunks, drawn);
      } finally {
        replyKey = drawn.key;
      }
      return true;
    } catch (error) {
      if (accepted) {
        // The message was stored and its reply cut off: both stay (the live events bring what
        // the server kept), and the visitor learns why it stopped.
        const current = this.state.messages.find((message) => message.key === replyKey);
        if (current?.status === 'streaming')
          this.set({
            messages:
              current.text === ''
                ? this.state.messages.filter((message) => message.key !== replyKey)
                : this.state.messages.map((message) => (message.key === replyKey ? { ...message, status: 'error' } : message)),
          });
        this.report(error);
        return true;
      }
      // The message was not accepted: take it back (the composer keeps the text) and say why.
      this.set({ sending: false, messages: this.state.messages.filter((message) => message.key !== userKey && message.key !== replyKey) });
      this.report(error);
      // A conflict means the server knows better (a reply still streaming, or the conversation ended).
      if (error instanceof PalaverApiError && error.status === 409) await this.refresh();
      return false;
    } finally {
      if (this.state.sending) this.set({ sending: false });
    }
  }

  /**
   * Draws a reply's UI message stream into the message `drawn.key`. The stream names its stored
   * message: if the live events drew it already, it writes there (and `drawn.key` follows). It
   * writes only while the reply is still streaming (a stored, finished one wins).
   */
  private async streamReply(chunks: ReadableStream<PalaverUiChunk>, drawn: { key: string }): Promise<void> {
    const named = (id: string) => {
      const found = this.state.messages.find((message) => message.id === id && message.key !== drawn.key);
      if (!found) return this.updateMessage(drawn.key, { id });
      this.set({ messages: this.state.messages.filter((message) => message.key !== drawn.key) });
      drawn.key = found.key;
    };
    const streaming = () => this.state.messages.find((message) => message.key === drawn.key)?.status === 'streaming';
    let answer = '';
    for await (const chunk of chunks as unknown as AsyncIterable<PalaverUiChunk>) {
      if (chunk.type === 'start' && typeof chunk.messageId === 'string') named(chunk.messageId);
      else if (chunk.type === 'text-start') {
        const id = storedMessageId(chunk);
        if (id) named(id);
        const palaver = (chunk.providerMetadata as { palaver?: { sources?: PalaverSource[] } } | undefined)?.palaver;
        if (Array.isArray(palaver?.sources) && palaver.sources.length > 0) this.updateMessage(drawn.key, { sources: palaver.sources });
      } else if (chunk.type === 'text-delta') {
        answer += String(chunk.delta);
        if (streaming()) this.updateMessage(drawn.key, { text: answer });
      } else if (chunk.type === 'error') {
        if (streaming()) this.updateMessage(drawn.key, { status: 'error' });
        this.set({ notice: { text: 'The assistant could not finish this answer. Please try again.' } });
      }
    }
    if (streaming()) this.updateMessage(drawn.key, { status: 'complete' });
  }

  /**
   * A reply still being generated when the history was loaded (the page was reloaded mid-reply):
   * it is streamed again from its first chunk into its message, and can be stopped meanwhile.
   */
  private async resumeReply(conversationId: string): Promise<void> {
    const { client } = this.options;
    const last = this.state.messages.at(-1);
    if (!client || this.state.sending || last?.role !== 'assistant' || last.status !== 'streaming') return;
    this.set({ sending: true });
    try {
      const chunks = await client.resumeReply(conversationId);
      if (chunks) await this.streamReply(chunks, { key: last.key });
      else await this.refreshNow(conversationId);
    } catch (error) {
      this.report(error);
    } finally {
      if (this.state.sending) this.set({ sending: false });
    }
  }

  /** Stops the reply being streamed: the server keeps the text so far, and the stream ends. */
  async stop(): Promise<void> {
    const { conversationId } = this.state;
    if (!conversationId || !this.options.client || !this.state.sending) return;
    try {
      await this.options.client.stopReply(conversationId);
    } catch (error) {
      this.report(error);
    }
  }

  /**
   * Shows a failure to the visitor. A refused key also tells the site owner (console); a service
   * that could not be reached is tried again until it answers, and then the notice goes.
   */
  private report(error: unknown): void {
    const notice = noticeFor(error);
    this.set({ notice });
    if (notice.fatal && error instanceof PalaverApiError) warnSiteOwner(error);
    if (notice.reconnect) void this.reconnect();
  }

  /** Tries the service (its cheapest call) again and again, until it answers. */
  private async reconnect(): Promise<void> {
    const { client } = this.options;
    if (!client || this.reconnecting) return;
    this.reconnecting = true;
    try {
      for (let attempt = 0; !this.lifetime.signal.aborted; attempt += 1) {
        await waitToRetry(retryDelay(attempt), this.lifetime.signal);
        try {
          await client.getProject();
          break;
        } catch (error) {
          if (!worthRetrying(error)) return this.report(error);
        }
      }
    } finally {
      this.reconnecting = false;
    }
    // Only a notice of the outage goes: another failure's stays.
    if (this.state.notice?.reconnect && !this.lifetime.signal.aborted) this.set({ notice: null });
  }

  async feedback(message: WidgetMessage, value: Feedback): Promise<void> {
    if (!message.id || !this.options.client) return;
    const next = message.feedback === value ? null : value;
    this.ownFeedback.set(message.id, next);
    this.updateMessage(message.key, { feedback: next });
    try {
      await this.options.client.feedback(message.id, next);
    } catch (error) {
      this.ownFeedback.delete(message.id);
      this.updateMessage(message.key, { feedback: message.feedback });
      this.report(error);
    }
  }

  private async ensureConversation(): Promise<string> {
    if (this.state.conversationId && !this.state.closed) return this.state.conversationId;
    const pageUrl = /^https?:/.test(location.href) ? location.href : undefined;
    const conversation = await this.options.client!.createConversation(pageUrl ? { pageUrl } : undefined);
    this.write(conversation.id);
    // After an ended conversation only what is being sent (not stored yet) moves to the new one.
    const earlier = this.state.closed ? this.state.messages.filter((message) => message.id === null) : this.state.messages;
    this.unfollow();
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
    const byId = new Map(this.state.messages.filter((m) => m.id).map((m) => [m.id, m]));
    const messages = (conversation.messages ?? []).map((stored) => {
      const known = byId.get(stored.id);
      return this.withOwnFeedback(known ? merged(stored, known) : fromStored(stored));
    });
    const sameMessages =
      messages.length === this.state.messages.length &&
      messages.every(
        (m, i) =>
          m.id === this.state.messages[i]?.id && m.text === this.state.messages[i]?.text && m.feedback === this.state.messages[i]?.feedback,
      );
    const { handoff, humanAgent } = handoffOf(conversation);
    const closed = conversation.status === 'closed';
    const contact = conversation.contact?.email ?? this.state.contact;
    if (
      sameMessages &&
      closed === this.state.closed &&
      contact === this.state.contact &&
      handoff === this.state.handoff &&
      JSON.stringify(humanAgent) === JSON.stringify(this.state.humanAgent)
    )
      return;
    const patch: Partial<SessionState> = {
      conversationId: conversation.id,
      ...(conversation.id !== this.state.conversationId || !this.state.rating ? { rating: this.storedRating(conversation.id) } : {}),
      closed,
      contact,
      messages: sameMessages ? this.state.messages : messages,
      ...this.handoffPatch(handoff, humanAgent),
    };
    // Polled (no live events): the claim is seen only as a change of state, placed now.
    if (this.liveUnavailable && handoff === 'claimed' && this.state.handoff !== 'claimed' && this.state.conversationId === conversation.id)
      patch.notes = [...this.state.notes, joinedNote(`joined-${Date.now()}`, humanAgent, new Date().toISOString())];
    this.set(patch);
  }

  /** The change of who answers; a release by a person lets the visitor rate the conversation. */
  private handoffPatch(handoff: Handoff, humanAgent: HumanAgent | null): Partial<SessionState> {
    const patch: Partial<SessionState> = { handoff, humanAgent };
    if (handoff !== 'none') patch.released = false;
    else if (this.state.handoff !== 'none') patch.released = true;
    return patch;
  }

  /**
   * Follows the open conversation's live events (agent messages, handoff, close), reconnecting
   * with the last event id after a drop; an older gateway without them is polled instead.
   */
  private follow(): void {
    const { client } = this.options;
    const conversationId = this.state.conversationId;
    if (!client || !conversationId || !this.isOpen || this.live || this.pollTimer) return;
    if (this.liveUnavailable) {
      this.startPolling();
      return;
    }
    const controller = new AbortController();
    this.live = controller;
    void (async () => {
      let after: string | null = null;
      for (let failures = 0; !controller.signal.aborted; failures += 1) {
        try {
          const events = await client.conversationEvents(conversationId, { after, signal: controller.signal });
          failures = 0;
          for await (const event of events as unknown as AsyncIterable<ConversationLiveEvent>) {
            after = event.id;
            this.applyEvent(event);
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          if (error instanceof PalaverApiError && error.status < 500 && error.status !== 408 && error.status !== 429) {
            if (error.code === 'NOT_FOUND') {
              // no such route: a gateway without live events
              this.liveUnavailable = true;
              if (this.live === controller) this.live = null;
              this.follow();
            }
            return;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** failures)));
      }
    })();
  }

  private unfollow(): void {
    this.live?.abort();
    this.live = null;
    this.stopPolling();
  }

  private applyEvent(event: ConversationLiveEvent): void {
    if (event.conversation.id !== this.state.conversationId) return;
    const { conversation, message } = event;
    const { handoff, humanAgent } = handoffOf(conversation);
    const patch: Partial<SessionState> = { closed: conversation.status === 'closed' };
    if (handoff !== this.state.handoff || JSON.stringify(humanAgent) !== JSON.stringify(this.state.humanAgent))
      Object.assign(patch, this.handoffPatch(handoff, humanAgent));
    // The history comes first on a new stream, so a claim made before the page loaded is shown too.
    if (event.type === 'handoff.claimed' && !this.state.notes.some((note) => note.key === `joined-${event.id}`))
      patch.notes = [...this.state.notes, joinedNote(`joined-${event.id}`, humanAgent, event.occurredAt)];
    if (event.type === 'handoff.released') patch.released = true;
    if (message) {
      const messages = [...this.state.messages];
      const byId = messages.findIndex((known) => known.id === message.id);
      // The visitor's own message, shown before the server named it.
      const pending = messages.findIndex(
        (known) => known.id === null && known.role === message.role && message.role === 'user' && known.text === fromStored(message).text,
      );
      // The reply this widget waits for (its typing dots), before its stream named it: the live
      // event can come first (another connection). A finished reply fills it, and the stream,
      // when it comes, leaves the stored text as it is.
      const ownReply =
        message.role === 'assistant'
          ? messages.findIndex((known) => known.id === null && known.role === 'assistant' && known.status === 'streaming')
          : -1;
      const streaming = messages.some((known) => known.id === message.id && known.status === 'streaming');
      if (byId >= 0 && !streaming) messages[byId] = this.withOwnFeedback(merged(message, messages[byId]!));
      else if (byId < 0 && pending >= 0) messages[pending] = this.withOwnFeedback(merged(message, messages[pending]!));
      else if (byId < 0 && ownReply >= 0)
        messages[ownReply] =
          message.status === 'streaming'
            ? { ...messages[ownReply]!, id: message.id }
            : this.withOwnFeedback(merged(message, messages[ownReply]!));
      else if (byId < 0 && !(message.role === 'assistant' && message.status === 'streaming'))
        messages.push(this.withOwnFeedback(fromStored(message)));
      patch.messages = messages;
    }
    this.set(patch);
  }

  /** The server's message, with the visitor's own feedback kept until the server shows it too. */
  private withOwnFeedback(message: WidgetMessage): WidgetMessage {
    if (!message.id || !this.ownFeedback.has(message.id)) return message;
    const own = this.ownFeedback.get(message.id) as Feedback | null;
    if (message.feedback === own) this.ownFeedback.delete(message.id);
    return { ...message, feedback: own };
  }

  private startPolling(): void {
    if (this.pollTimer || !this.options.client) return;
    this.pollTimer = setInterval(() => void this.refresh(), this.options.pollMs ?? 3000);
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  dispose(): void {
    this.lifetime.abort();
    this.unfollow();
    this.listeners.clear();
  }

  private read(): string | null {
    try {
      return this.options.storage?.getItem(this.storageKey) ?? null;
    } catch {
      return null;
    }
  }

  private write(conversationId: string): void {
    try {
      this.options.storage?.setItem(this.storageKey, conversationId);
    } catch {
      // storage unavailable: the conversation lasts as long as the page
    }
  }

  private forget(): void {
    try {
      this.options.storage?.removeItem(this.storageKey);
    } catch {
      // nothing stored
    }
  }
}
