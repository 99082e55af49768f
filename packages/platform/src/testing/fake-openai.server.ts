import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from '../chat-model/token-count';

/** What the fake does with the next chat completion request (a queue; `reply` when empty). */
export type FakeChatBehaviour =
  | {
      kind: 'reply';
      /** The answer; by default "Echo: " and the last user message. */
      text?: string;
      finishReason?: 'stop' | 'length' | 'content_filter' | 'tool_calls' | 'function_call' | string;
      /** Extra usage details reported in the final usage chunk. */
      reasoningTokens?: number;
      cachedTokens?: number;
      /** Leave the usage chunk out even when the client asks for it. */
      omitUsage?: boolean;
      wordsPerChunk?: number;
      /** Wait this long before the first content chunk (a slow upstream). */
      delayMs?: number;
      /** After the text, call this tool (streamed as a `tool_calls` delta; finish reason `tool_calls`). */
      toolCall?: string;
    }
  /** Stream `afterChunks` content chunks, then destroy the socket. */
  | { kind: 'fail-mid-stream'; afterChunks: number; text?: string }
  /** Answer the HTTP status with an OpenAI-style error body. */
  | { kind: 'http-error'; status: number; message?: string }
  /** Send nothing (or `afterChunks` content chunks first) and keep the connection open. */
  | { kind: 'hang'; afterChunks?: number; text?: string };

export type FakeEmbeddingsBehaviour = { kind: 'vectors' } | { kind: 'http-error'; status: number; message?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: Array<{ role: string; content: unknown }>;
}

/**
 * A local OpenAI-compatible server for adapter tests (127.0.0.1, ephemeral port):
 * POST /v1/chat/completions (SSE stream or JSON) and POST /v1/embeddings (deterministic vectors).
 * Each request is recorded; scripted behaviours make it fail the ways real upstreams do.
 */
export class FakeOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly chatScript: FakeChatBehaviour[] = [];
  private readonly embeddingsScript: FakeEmbeddingsBehaviour[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseURL: string,
    private readonly options: { apiKey: string | null; defaultDimensions: number },
  ) {}

  static async start(options: { apiKey?: string; defaultDimensions?: number } = {}): Promise<FakeOpenAiServer> {
    let fake: FakeOpenAiServer | undefined;
    const server = createServer((req, res) => {
      void fake!.route(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeOpenAiServer(server, `http://127.0.0.1:${port}/v1`, {
      apiKey: options.apiKey ?? null,
      defaultDimensions: options.defaultDimensions ?? 8,
    });
    return fake;
  }

  /** Queue behaviours for the next chat completion requests, in order. */
  scriptChat(...behaviours: FakeChatBehaviour[]): void {
    this.chatScript.push(...behaviours);
  }

  scriptEmbeddings(...behaviours: FakeEmbeddingsBehaviour[]): void {
    this.embeddingsScript.push(...behaviours);
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return sendError(res, 400, 'invalid JSON body');
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    this.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    if (this.options.apiKey !== null && req.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      return sendError(res, 401, 'Incorrect API key provided');
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') return this.chat(body as ChatBody, res);
    if (req.method === 'POST' && path === '/v1/embeddings') return this.embeddings(body, res);
    return sendError(res, 404, `no route ${req.method} ${path}`);
  }

  private chat(body: ChatBody, res: ServerResponse): void {
    const behaviour = this.chatScript.shift() ?? { kind: 'reply' };
    if (behaviour.kind === 'http-error') {
      sendError(res, behaviour.status, behaviour.message ?? 'upstream failure');
      return;
    }
    const messages = body.messages ?? [];
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const text = behaviour.text ?? `Echo: ${typeof lastUser?.content === 'string' ? lastUser.content : ''}`;
    const model = body.model ?? 'fake-model';
    const pieces = wordGroups(text, behaviour.kind === 'reply' ? (behaviour.wordsPerChunk ?? 2) : 1);
    const promptTokens = messages.reduce((sum, m) => sum + countTokens(typeof m.content === 'string' ? m.content : ''), 0);
    const completionTokens = countTokens(text);
    const finishReason = behaviour.kind === 'reply' ? (behaviour.finishReason ?? 'stop') : 'stop';
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: behaviour.kind === 'reply' ? (behaviour.cachedTokens ?? 0) : 0 },
      completion_tokens_details: { reasoning_tokens: behaviour.kind === 'reply' ? (behaviour.reasoningTokens ?? 0) : 0 },
    };
    const id = `chatcmpl-${this.requests.length}`;
    const created = 1_700_000_000;

    if (!body.stream) {
      if (behaviour.kind === 'hang') return; // never answers
      if (behaviour.kind === 'fail-mid-stream') {
        res.socket?.destroy();
        return;
      }
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason, logprobs: null }],
        usage,
      });
      return;
    }

    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    send(chunk({ role: 'assistant', content: '' }, null));

    if (behaviour.kind === 'fail-mid-stream' || behaviour.kind === 'hang') {
      const count = behaviour.afterChunks ?? 0;
      for (const piece of pieces.slice(0, count)) send(chunk({ content: piece }, null));
      if (behaviour.kind === 'fail-mid-stream') {
        // Once what was written has been flushed, cut the connection without ending the response.
        res.write('', () => res.socket?.destroy());
      }
      return;
    }

    const rest = () => {
      if (res.destroyed) return;
      for (const piece of pieces) send(chunk({ content: piece }, null));
      const toolCall = behaviour.kind === 'reply' ? behaviour.toolCall : undefined;
      if (toolCall) {
        send(chunk({ tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: toolCall, arguments: '' } }] }, null));
        send(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, null));
      }
      send(chunk({}, toolCall ? 'tool_calls' : finishReason));
      if (body.stream_options?.include_usage && !behaviour.omitUsage) {
        send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
      }
      send('[DONE]');
      res.end();
    };
    if (behaviour.delayMs) setTimeout(rest, behaviour.delayMs);
    else rest();
  }

  private embeddings(body: any, res: ServerResponse): void {
    const behaviour = this.embeddingsScript.shift() ?? { kind: 'vectors' };
    if (behaviour.kind === 'http-error') {
      sendError(res, behaviour.status, behaviour.message ?? 'upstream failure');
      return;
    }
    const inputs: unknown[] = Array.isArray(body?.input) ? body.input : [body?.input];
    if (inputs.some((i) => typeof i !== 'string')) {
      sendError(res, 400, 'input must be a string or an array of strings');
      return;
    }
    const dimensions: number = body.dimensions ?? this.options.defaultDimensions;
    const data = (inputs as string[]).map((text, index) => {
      const vector = fakeEmbedding(text, dimensions);
      return {
        object: 'embedding',
        index,
        embedding: body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
      };
    });
    const tokens = (inputs as string[]).reduce((sum, t) => sum + countTokens(t), 0);
    sendJson(res, 200, {
      object: 'list',
      model: body.model ?? 'fake-embedding',
      data,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }
}

/** The fake's vector for a text: unit length, the same for the same text and dimensions. */
export const fakeEmbedding = (text: string, dimensions: number): number[] => {
  const raw = Array.from({ length: dimensions }, (_, i) => (fnv1a(`${i}:${text}`) / 0xffffffff) * 2 - 1);
  const norm = Math.hypot(...raw) || 1;
  return raw.map((v) => v / norm);
};

const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
};

const wordGroups = (text: string, size: number): string[] => text.match(new RegExp(String.raw`\s*(?:\S+\s*){1,${size}}`, 'gu')) ?? [];

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const sendError = (res: ServerResponse, status: number, message: string): void =>
  sendJson(res, status, { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null } });
