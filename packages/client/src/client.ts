import type {
  ChatCompletionResult,
  CloseConversationResponse,
  Contact,
  Conversation,
  ConversationLiveEvent,
  Feedback,
  InitIdentityResponse,
  ListConversationsQuery,
  ListMessagesQuery,
  Message,
  PageContext,
  Project,
  Rating,
  RatingBody,
  SearchResponse,
  StopReplyResponse,
  TypingEvent,
  Visitor,
} from '@palaver/contracts';
import { errorFromResponse, PalaverApiError, PalaverNetworkError } from './errors';
import { newIdempotencyKey, withSafeRetries } from './safe-retry';
import { type PalaverUiChunk, readJsonEventStream, readUiMessageStream } from './ui-stream';

/** An agent typing in the conversation (SSE event `typing`, never stored, no id): show it for TYPING_TTL_MS or until their message. */
export type AgentTypingEvent = Extract<TypingEvent, { by: 'agent' }>;
/** What `conversationEvents` yields: the stored events (with an id to resume from) and typing signals (without). */
export type ConversationStreamEvent = ConversationLiveEvent | AgentTypingEvent;

export interface PalaverClientOptions {
  /** The gateway's address, e.g. `https://chat.example.com` (a trailing `/v2` is accepted). */
  baseUrl: string;
  /** A publishable key (`pk_…`). */
  apiKey: string;
  /** The device id sent as `saVid`; a function is called when a session is needed. */
  deviceId?: string | (() => string);
  /**
   * A user token (a JWT your backend signs with the project's identity secret; docs/widget.md):
   * sessions are then on that identified user, not on the device's anonymous visitor. A function
   * is called each time a session starts, so it can hand a fresh token once one has expired.
   */
  userToken?: string | null | (() => string | null | Promise<string | null>);
  fetch?: typeof fetch;
  /**
   * How many times a send (a POST: conversation, message, feedback, close) is tried again when it
   * got no answer, or while its first try is still being handled (default 4; 0 for none). Each
   * send carries an `Idempotency-Key`, reused by its retries, so a retry never does it twice.
   */
  retries?: number;
}

/** Options of one send: its Idempotency-Key (a new one by default). */
export interface SendOptions {
  idempotencyKey?: string;
}

export interface List<T> {
  object: 'list';
  data: T[];
  total?: number;
  limit?: number;
  offset?: number;
}

export interface SendMessageInput {
  content: string;
  pageContext?: PageContext | null;
}

/** A streamed reply, or the 202 confirmation of a conversation a human agent handles. */
export type StreamedReply = { type: 'stream'; chunks: ReadableStream<PalaverUiChunk> } | { type: 'queued'; text: string };
export type JsonReply = { type: 'reply'; result: ChatCompletionResult } | { type: 'queued'; text: string };

type Query = Record<string, string | number | undefined | null>;

/**
 * A typed client of the v2 API (types from `@palaver/contracts`). It holds the visitor's session:
 * the first visitor-scoped call runs `identity/init` with the device id, and an expired session
 * (401) is renewed once with the same device id.
 */
export class PalaverClient {
  readonly baseUrl: string;
  private sessionToken: string | null = null;
  private visitor: Visitor | null = null;
  private pendingInit: Promise<InitIdentityResponse> | null = null;
  private userTokenSource: PalaverClientOptions['userToken'];

  constructor(private readonly options: PalaverClientOptions) {
    this.userTokenSource = options.userToken;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/v2$/, '');
  }

  get apiKey(): string {
    return this.options.apiKey;
  }

  get currentVisitor(): Visitor | null {
    return this.visitor;
  }

  /**
   * Starts a session: on the identified user of the `userToken` option when there is one, else on
   * the anonymous visitor of this device (created on first sight).
   */
  async init(deviceId?: string): Promise<InitIdentityResponse> {
    const saVid = deviceId ?? this.deviceId();
    const userToken = await this.userToken();
    const result = await this.json<InitIdentityResponse>('POST', '/v2/identity/init', {
      body: userToken ? { apiKey: this.apiKey, saVid, userToken } : { apiKey: this.apiKey, saVid },
    });
    this.sessionToken = result.sessionToken;
    this.visitor = result.visitor;
    return result;
  }

  /**
   * Switches to the user of this token (null: back to the device's anonymous visitor) and starts
   * their session. Conversations of the previous visitor are not theirs: start a new one.
   */
  identify(userToken: string | null): Promise<InitIdentityResponse> {
    this.userTokenSource = userToken;
    this.sessionToken = null;
    this.visitor = null;
    return this.init();
  }

  me(): Promise<Visitor> {
    return this.session('GET', '/v2/identity/me');
  }

  /** The project of the key, with its chat widget configuration and quick prompts. */
  getProject(): Promise<Project> {
    return this.json('GET', '/v2/projects/current', { query: { apiKey: this.apiKey } });
  }

  search(q: string, size?: number): Promise<SearchResponse> {
    return this.json('GET', '/v2/search', { query: { q, size, apiKey: this.apiKey } });
  }

  createConversation(context?: { pageUrl?: string }, options: SendOptions = {}): Promise<Conversation> {
    return this.session('POST', '/v2/conversations', { body: context ? { context } : {}, ...options });
  }

  listConversations(query: Partial<ListConversationsQuery> = {}): Promise<List<Conversation>> {
    return this.session('GET', '/v2/conversations', { query });
  }

  getConversation(conversationId: string): Promise<Conversation> {
    return this.session('GET', `/v2/conversations/${encodeURIComponent(conversationId)}`);
  }

  listMessages(conversationId: string, query: Partial<ListMessagesQuery> = {}): Promise<List<Message>> {
    return this.session('GET', `/v2/conversations/${encodeURIComponent(conversationId)}/messages`, { query });
  }

  /** Sends a message and waits for the whole reply (the Chat completion result). */
  async sendMessage(conversationId: string, input: SendMessageInput, options: SendOptions = {}): Promise<JsonReply> {
    const response = await this.sessionFetch('POST', this.messagesPath(conversationId), { body: { ...input, stream: false }, ...options });
    if (response.status === 202) return { type: 'queued', text: await response.text() };
    return { type: 'reply', result: (await response.json()) as ChatCompletionResult };
  }

  /** Sends a message and streams the reply (the AI SDK's UI message stream). */
  async streamMessage(
    conversationId: string,
    input: SendMessageInput,
    signal?: AbortSignal,
    options: SendOptions = {},
  ): Promise<StreamedReply> {
    const response = await this.sessionFetch('POST', this.messagesPath(conversationId), {
      body: { ...input, stream: true },
      signal,
      ...options,
    });
    if (response.status === 202) return { type: 'queued', text: await response.text() };
    if (!response.body) throw new PalaverNetworkError('the reply stream has no body');
    return { type: 'stream', chunks: readUiMessageStream(response.body) };
  }

  /**
   * The reply being generated in the conversation, from its first chunk, then live (after a
   * reload, or from another tab); null when no reply is in progress (204).
   */
  async resumeReply(conversationId: string, signal?: AbortSignal): Promise<ReadableStream<PalaverUiChunk> | null> {
    const response = await this.sessionFetch('GET', `/v2/conversations/${encodeURIComponent(conversationId)}/stream`, { signal });
    if (response.status === 204) return null;
    if (!response.body) throw new PalaverNetworkError('the reply stream has no body');
    return readUiMessageStream(response.body);
  }

  /** Stops the reply being generated: it is stored with the text so far. */
  stopReply(conversationId: string): Promise<StopReplyResponse> {
    return this.session('POST', `/v2/conversations/${encodeURIComponent(conversationId)}/stop`);
  }

  /**
   * The conversation's live events (an extension, docs/api.md): new agent and visitor messages,
   * completed replies, handoff, release, close. Read with fetch, since EventSource cannot send
   * the session token. `after` (an event id) resumes; without it the history comes first. An
   * agent's typing comes as `{ type: 'typing', by: 'agent', … }`, which has no id to resume from.
   */
  async conversationEvents(
    conversationId: string,
    options: { after?: string | null; signal?: AbortSignal } = {},
  ): Promise<ReadableStream<ConversationStreamEvent>> {
    const response = await this.sessionFetch('GET', `/v2/conversations/${encodeURIComponent(conversationId)}/events`, {
      query: { after: options.after },
      signal: options.signal,
    });
    if (!response.body) throw new PalaverNetworkError('the event stream has no body');
    return readJsonEventStream<ConversationStreamEvent>(response.body);
  }

  /**
   * Tells the agent holding the conversation that the visitor is typing (for TYPING_TTL_MS).
   * Send at most one per TYPING_MIN_INTERVAL_MS: the server drops extras (still a success).
   */
  async sendTyping(conversationId: string): Promise<void> {
    await this.sessionFetch('POST', `/v2/conversations/${encodeURIComponent(conversationId)}/typing`, {});
  }

  closeConversation(conversationId: string, closeReason?: string): Promise<CloseConversationResponse> {
    return this.session('POST', `/v2/conversations/${encodeURIComponent(conversationId)}/close`, {
      body: closeReason ? { closeReason } : {},
    });
  }

  /** Likes, dislikes (or with null, clears the feedback on) a stored assistant or agent message. */
  feedback(messageId: string, feedback: Feedback | null, options: SendOptions = {}): Promise<{ feedback: Feedback | null }> {
    return this.session('POST', `/v2/messages/${encodeURIComponent(messageId)}/feedback`, { body: { feedback }, ...options });
  }

  /** Rates the conversation (CSAT): `score` 1-5, an optional comment; rating again replaces it. */
  rateConversation(conversationId: string, rating: RatingBody, options: SendOptions = {}): Promise<Rating> {
    return this.session('POST', `/v2/conversations/${encodeURIComponent(conversationId)}/rating`, { body: rating, ...options });
  }

  /** Leaves an email (and a name) so the team can get back to the visitor (when nobody could answer). */
  leaveContact(conversationId: string, contact: { email: string; name?: string }, options: SendOptions = {}): Promise<Contact> {
    return this.session('POST', `/v2/conversations/${encodeURIComponent(conversationId)}/contact`, { body: contact, ...options });
  }

  private messagesPath(conversationId: string): string {
    return `/v2/conversations/${encodeURIComponent(conversationId)}/messages`;
  }

  private async userToken(): Promise<string | null> {
    const source = this.userTokenSource;
    return (typeof source === 'function' ? await source() : source) ?? null;
  }

  private deviceId(): string {
    const { deviceId } = this.options;
    if (typeof deviceId === 'function') return deviceId();
    if (deviceId) return deviceId;
    throw new Error('PalaverClient: a deviceId is needed to start a session');
  }

  private async ensureSession(): Promise<string> {
    if (this.sessionToken) return this.sessionToken;
    this.pendingInit ??= this.init().finally(() => {
      this.pendingInit = null;
    });
    return (await this.pendingInit).sessionToken;
  }

  private async session<T>(
    method: string,
    path: string,
    init: { body?: unknown; query?: Query; idempotencyKey?: string } = {},
  ): Promise<T> {
    const response = await this.sessionFetch(method, path, init);
    return (await response.json()) as T;
  }

  /**
   * A visitor-scoped request; a 401 (expired session) renews the session once and retries. A POST
   * carries an Idempotency-Key and is retried safely (see `retries`).
   */
  private async sessionFetch(
    method: string,
    path: string,
    init: { body?: unknown; query?: Query; signal?: AbortSignal | undefined; idempotencyKey?: string },
  ): Promise<Response> {
    if (method !== 'POST') return this.sessionFetchOnce(method, path, init);
    const keyed = { ...init, idempotencyKey: init.idempotencyKey ?? newIdempotencyKey() };
    return withSafeRetries(() => this.sessionFetchOnce(method, path, keyed), { retries: this.options.retries ?? 4, signal: init.signal });
  }

  private async sessionFetchOnce(
    method: string,
    path: string,
    init: { body?: unknown; query?: Query; signal?: AbortSignal | undefined; idempotencyKey?: string },
  ): Promise<Response> {
    const token = await this.ensureSession();
    try {
      return await this.request(method, path, { ...init, token });
    } catch (error) {
      if (!(error instanceof PalaverApiError) || error.status !== 401) throw error;
      this.sessionToken = null;
      return this.request(method, path, { ...init, token: await this.ensureSession() });
    }
  }

  private async json<T>(method: string, path: string, init: { body?: unknown; query?: Query } = {}): Promise<T> {
    return (await (await this.request(method, path, init)).json()) as T;
  }

  private async request(
    method: string,
    path: string,
    init: { body?: unknown; query?: Query; token?: string; signal?: AbortSignal | undefined; idempotencyKey?: string },
  ): Promise<Response> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
    let response: Response;
    try {
      response = await (this.options.fetch ?? globalThis.fetch)(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal,
      });
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw new PalaverNetworkError(`could not reach ${this.baseUrl}: ${(error as Error)?.message ?? error}`);
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }
}
