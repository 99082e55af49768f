import type { Chat, ChatPostInput, ChatSummary, Customer, CustomerInput, QnaSummary, SurfaceBProject } from './contract-types';
import { HttpApi, segment } from './http';

export interface PalaverServerOptions {
  /** The gateway's address, e.g. `https://chat.example.com`. */
  baseUrl: string;
  /** A private key of the project (`sk_…`); never put it in a browser. */
  serviceKey: string;
  /** The surface's base path on the gateway (its `SURFACE_B_BASE`), `/api` by default. */
  basePath?: string;
  fetch?: typeof fetch;
}

/** A page of surface B: `totalPages` is 0 when there is nothing. */
export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  totalPages: number;
}

export interface Paging {
  /** From 1 (default 1). */
  page?: number;
  /** 1 to 100 (default 10). */
  pageSize?: number;
}

/** A message to a chat: the text, or the body's fields (`message` as text or parts). */
export type ChatInput = Omit<ChatPostInput, 'message' | 'streaming'> & {
  message: string | ChatPostInput['message'];
  signal?: AbortSignal;
};

/**
 * The reply as it is generated: `textStream` yields the text as it comes, `text()` waits for all
 * of it (use one or the other). `queued`: a person handles the chat; the message waits for them.
 */
export type StreamedChatReply =
  | { type: 'stream'; textStream: ReadableStream<string>; text(): Promise<string> }
  | { type: 'queued'; text: string };
export type ChatReply = { type: 'reply'; text: string } | { type: 'queued'; text: string };

/**
 * Surface B, the API for a customer's own backend: customers (the project's identified visitors,
 * by the app's user id), their chats, a message to a chat with its reply, the Q&A entries.
 */
export class PalaverServer {
  private readonly http: HttpApi;

  constructor(options: PalaverServerOptions) {
    const base = options.baseUrl.replace(/\/+$/, '') + (options.basePath ?? '/api').replace(/\/+$/, '');
    this.http = new HttpApi(base, { 'x-service-key': options.serviceKey }, options.fetch);
  }

  getProject(): Promise<SurfaceBProject> {
    return this.http.json('GET', '/get-project');
  }

  /** Creates the customer or updates the fields given (`attributes` merge key by key). */
  upsertCustomer(appUserId: string, input: CustomerInput = {}): Promise<Customer> {
    return this.http.json('POST', `/customers/${segment(appUserId)}`, { body: input });
  }

  /** The customer's chats, latest interaction first. An unknown customer is 404 `NOT_FOUND`. */
  listChats(appUserId: string, query: Paging & { filter?: 'all' | 'open' | 'closed' } = {}): Promise<Page<ChatSummary>> {
    return this.http.json('GET', `/customers/${segment(appUserId)}/chats`, { query: { ...query } });
  }

  getChat(appUserId: string, chatId: string): Promise<Chat> {
    return this.http.json('GET', `/customers/${segment(appUserId)}/chats/${segment(chatId)}`);
  }

  /**
   * Sends a message and streams the reply. The chat is created on first use under `chatId` (a
   * uuid the caller picks, e.g. `crypto.randomUUID()`), the customer too.
   */
  async streamChat(appUserId: string, chatId: string, input: ChatInput): Promise<StreamedChatReply> {
    const response = await this.postChat(appUserId, chatId, input, true);
    if (response.status === 202) return { type: 'queued', text: await response.text() };
    const body = response.body;
    if (!body) throw new Error('the reply has no body');
    const textStream = body.pipeThrough(new TextDecoderStream());
    return {
      type: 'stream',
      textStream,
      async text() {
        let text = '';
        for await (const chunk of textStream) text += chunk;
        return text;
      },
    };
  }

  /** Sends a message and waits for the whole reply. */
  async chat(appUserId: string, chatId: string, input: ChatInput): Promise<ChatReply> {
    const response = await this.postChat(appUserId, chatId, input, false);
    if (response.status === 202) return { type: 'queued', text: await response.text() };
    return { type: 'reply', text: (await response.json()) as string };
  }

  /** The project's Q&A entries; `query` searches the questions. */
  listQnas(query: Paging & { query?: string } = {}): Promise<Page<QnaSummary>> {
    return this.http.json('GET', '/qnas', { query: { ...query } });
  }

  private postChat(appUserId: string, chatId: string, input: ChatInput, streaming: boolean): Promise<Response> {
    const { message, signal, ...rest } = input;
    const body: ChatPostInput = {
      ...rest,
      message: typeof message === 'string' ? { role: 'user', parts: [{ type: 'text', text: message }] } : message,
      streaming,
    };
    return this.http.send('POST', `/customers/${segment(appUserId)}/chats/${segment(chatId)}/chat`, { body, signal });
  }
}
