import { randomUUID } from 'node:crypto';
import { Controller, type DynamicModule, Inject, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AppError,
  type AssistantRecord,
  ConversationMessages,
  GENERATE_REPLY_JOB,
  type GenerateReplyJob,
  IDENTITY_CHANGES_CHANNEL,
  type IdentityChange,
  IdentityMessages,
  INFERENCE_QUEUE,
  InferenceMessages,
  QUIET_REPLY_PROGRESS_MS,
  type Retrieval,
  replyChannel,
  SearchMessages,
  type TokenChunk,
} from '@palaver/contracts';
import {
  type ChatModel,
  type ChatRequest,
  handle,
  type Infrastructure,
  LocalResponder,
  type ModelChunk,
  type RunningService,
  startService,
} from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startInferenceService } from './index';

const OPENING_HOURS = 'We are open Monday to Friday, 9am to 6pm, and on Saturday from 10am to 2pm.';

/** What the test doubles of identity, search and conversation answer, and what they were asked. */
class Doubles {
  assistant: AssistantRecord | null = null;
  retrieval: Retrieval | AppError = { qnas: [], chunks: [] };
  /** Errors completeReply answers, one per request, before it accepts. */
  completeReplyErrors: AppError[] = [];
  readonly log: Array<{ subject: string; request: any }> = [];

  requests(subject: string): any[] {
    return this.log.filter((e) => e.subject === subject).map((e) => e.request);
  }
}

const DOUBLES = 'Doubles';

/** Test doubles of the other services' message subjects (not of the code under test). */
@Controller()
class OtherServicesDouble {
  constructor(@Inject(DOUBLES) private readonly doubles: Doubles) {}

  @MessagePattern(IdentityMessages.getAssistant.subject)
  getAssistant(@Payload() raw: unknown) {
    return handle(IdentityMessages.getAssistant, raw, async (req) => {
      this.doubles.log.push({ subject: 'getAssistant', request: req });
      if (!this.doubles.assistant) throw new AppError('ASSISTANT_NOT_FOUND', 'assistant not found');
      return this.doubles.assistant;
    });
  }

  @MessagePattern(SearchMessages.retrieve.subject)
  retrieve(@Payload() raw: unknown) {
    return handle(SearchMessages.retrieve, raw, async (req) => {
      this.doubles.log.push({ subject: 'retrieve', request: req });
      if (this.doubles.retrieval instanceof AppError) throw this.doubles.retrieval;
      return this.doubles.retrieval;
    });
  }

  @MessagePattern(ConversationMessages.completeReply.subject)
  completeReply(@Payload() raw: unknown) {
    return handle(ConversationMessages.completeReply, raw, async (req) => {
      this.doubles.log.push({ subject: 'completeReply', request: req });
      const error = this.doubles.completeReplyErrors.shift();
      if (error) throw error;
      return { ok: true as const };
    });
  }

  @MessagePattern(ConversationMessages.failReply.subject)
  failReply(@Payload() raw: unknown) {
    return handle(ConversationMessages.failReply, raw, async (req) => {
      this.doubles.log.push({ subject: 'failReply', request: req });
      return { ok: true as const };
    });
  }
}

@Module({})
class OtherServicesDoubleModule {
  static register(doubles: Doubles): DynamicModule {
    return { module: OtherServicesDoubleModule, controllers: [OtherServicesDouble], providers: [{ provide: DOUBLES, useValue: doubles }] };
  }
}

/** The chunks of one reply's channel, and a promise of its terminal chunk. */
const listen = async (infra: Infrastructure, replyId: string, doubles: Doubles) => {
  const chunks: TokenChunk[] = [];
  let resolveEnd!: (chunk: TokenChunk) => void;
  const ended = new Promise<TokenChunk>((resolve) => {
    resolveEnd = resolve;
  });
  await infra.pubsub.subscribe(replyChannel(replyId), (message) => {
    const chunk = message as TokenChunk;
    chunks.push(chunk);
    doubles.log.push({ subject: `chunk:${chunk.type}`, request: chunk });
    if (chunk.type !== 'delta') resolveEnd(chunk);
  });
  return { chunks, ended };
};

/** Records each request, then answers like the wrapped model. */
class RecordingModel implements ChatModel {
  readonly name = 'recording';
  readonly requests: ChatRequest[] = [];
  constructor(private readonly inner: ChatModel) {}
  stream(request: ChatRequest): AsyncIterable<ModelChunk> {
    this.requests.push(request);
    return this.inner.stream(request);
  }
}

/** Streams two fragments, then fails the way the OpenAI adapter does when the upstream drops. */
class FailingModel implements ChatModel {
  readonly name = 'failing';
  async *stream(): AsyncIterable<ModelChunk> {
    yield { type: 'delta', delta: 'We are ' };
    yield { type: 'delta', delta: 'open from ' };
    throw new AppError('BAD_GATEWAY', 'the chat model failed: terminated', { service: 'llm' });
  }
}

/** Yields its words one at a time, `gapMs` apart, as a remote model streams tokens. */
class SlowModel implements ChatModel {
  readonly name = 'slow';
  constructor(
    readonly words: string[],
    private readonly gapMs: number,
  ) {}
  async *stream(): AsyncIterable<ModelChunk> {
    for (const [i, word] of this.words.entries()) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, this.gapMs));
      yield { type: 'delta', delta: word };
    }
    const usage = {
      inputTokens: 10,
      outputTokens: this.words.length,
      totalTokens: 10 + this.words.length,
      reasoningTokens: 0,
      cachedInputTokens: 0,
    };
    yield { type: 'finish', finishReason: 'stop', usage };
  }
}

describe('inference service', () => {
  let infra: TestInfrastructure;
  let doubles: Doubles;
  const running: RunningService[] = [];
  const projectId = randomUUID();

  const start = async (chatModel?: ChatModel) => {
    running.push(await startService('other-services-double', OtherServicesDoubleModule.register(doubles), infra));
    running.push(await startInferenceService(chatModel ? { ...infra, chatModel } : infra));
  };

  /** Listens on the job's reply channel, then queues it: its chunks, and the terminal one once it comes. */
  const runReply = async (job: GenerateReplyJob) => {
    const listened = await listen(infra, job.assistantMessageId, doubles);
    await infra.jobs.enqueue(INFERENCE_QUEUE, GENERATE_REPLY_JOB, job);
    return listened;
  };

  const replyJob = (overrides: Partial<GenerateReplyJob> = {}): GenerateReplyJob => ({
    projectId,
    conversationId: randomUUID(),
    assistantMessageId: randomUUID(),
    assistantId: null,
    history: [
      { role: 'user', content: 'Hi there' },
      { role: 'assistant', content: 'Hello! How can I help you today?' },
      { role: 'user', content: 'What are your opening hours?' },
    ],
    pageContext: { url: 'https://shop.example/contact', title: 'Contact' },
    ...overrides,
  });

  beforeEach(async () => {
    infra = await createTestInfrastructure();
    doubles = new Doubles();
    doubles.assistant = {
      id: randomUUID(),
      projectId,
      name: 'Shop assistant',
      instructions: 'You are the assistant of Acme Shop.',
      model: null,
      createdAt: '2025-01-01T00:00:00.000Z',
    };
    doubles.retrieval = {
      qnas: [{ id: randomUUID(), question: 'What are your opening hours?', answer: OPENING_HOURS, score: 0.95 }],
      chunks: [],
    };
  });

  afterEach(async () => {
    for (const service of running.splice(0).reverse()) await service.close();
    await infra.cleanup();
  });

  it('streams a grounded reply on its channel, records it, then publishes the finish chunk', async () => {
    await start();
    const job = replyJob();
    const { chunks, ended } = await runReply(job);
    const end = await ended;

    const deltas = chunks.filter((c) => c.type === 'delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((d) => d.delta).join('')).toBe(OPENING_HOURS);
    // A Q&A answer quotes no document: the first delta says so, the others carry nothing.
    expect(deltas.map((d) => (d.type === 'delta' ? d.sources : null))).toEqual([[], ...deltas.slice(1).map(() => undefined)]);
    expect(chunks.at(-1)).toBe(end);
    expect(chunks.filter((c) => c.type !== 'delta')).toHaveLength(1);
    expect(end).toMatchObject({ type: 'finish', text: OPENING_HOURS, finishReason: 'stop' });

    expect(doubles.requests('getAssistant')).toEqual([{ projectId, assistantId: null }]);
    expect(doubles.requests('retrieve')).toEqual([{ projectId, query: 'What are your opening hours?', qnaLimit: 3, chunkLimit: 5 }]);
    const [completed] = doubles.requests('completeReply');
    expect(completed).toEqual({
      projectId,
      conversationId: job.conversationId,
      messageId: job.assistantMessageId,
      text: OPENING_HOURS,
      finishReason: 'stop',
      usage: end.type === 'finish' ? end.usage : null,
      sources: [],
      grounded: true,
      declined: false,
    });
    expect(completed.usage.outputTokens).toBe(19); // 15 words and 4 punctuation marks
    expect(completed.usage.inputTokens).toBeGreaterThan(20);
    expect(doubles.requests('failReply')).toEqual([]);
    // Recorded before the stream ends, so whoever sees the end finds the message stored.
    const order = doubles.log.map((e) => e.subject).filter((s) => s === 'completeReply' || s === 'chunk:finish');
    expect(order).toEqual(['completeReply', 'chunk:finish']);
  });

  it('grounds the reply on the knowledge its job carries, without asking search again', async () => {
    await start();
    const carried = doubles.retrieval as Retrieval;
    doubles.retrieval = new AppError('SERVICE_UNAVAILABLE', 'search must not be asked');
    const job = replyJob({ knowledge: carried });
    const { chunks, ended } = await runReply(job);
    expect(await ended).toMatchObject({ type: 'finish', text: OPENING_HOURS });
    expect(chunks.flatMap((c) => (c.type === 'delta' ? [c.delta] : [])).join('')).toBe(OPENING_HOURS);
    expect(doubles.requests('retrieve')).toEqual([]);
  });

  it("streams on the gateway's channel named by replyTo, each fragment marked with its reply's id", async () => {
    await start();
    const replyTo = `replies.${randomUUID()}`;
    const job = { ...replyJob(), replyTo };
    const routed: unknown[] = [];
    const own: unknown[] = [];
    await infra.pubsub.subscribe(replyTo, (message) => routed.push(message));
    await infra.pubsub.subscribe(replyChannel(job.assistantMessageId), (message) => own.push(message));
    await infra.jobs.enqueue(INFERENCE_QUEUE, GENERATE_REPLY_JOB, job);
    await vi.waitFor(() => expect(routed.at(-1)).toMatchObject({ chunk: { type: 'finish' } }), { timeout: 5_000, interval: 10 });
    expect(routed.length).toBeGreaterThan(2);
    expect(routed.every((m) => (m as { replyId: string }).replyId === job.assistantMessageId)).toBe(true);
    const text = routed.map((m) => (m as { chunk: TokenChunk }).chunk).flatMap((c) => (c.type === 'delta' ? [c.delta] : []));
    expect(text.join('')).toBe(OPENING_HOURS);
    expect(own).toEqual([]);
  });

  it("builds the prompt from the assistant's instructions, the page and the knowledge, with the assistant's model", async () => {
    const model = new RecordingModel(new LocalResponder());
    doubles.assistant = { ...doubles.assistant!, model: 'acme-large' };
    await start(model);
    const job = replyJob({ assistantId: doubles.assistant.id });
    const { ended } = await runReply(job);
    await ended;

    const [request] = model.requests;
    expect(request?.model).toBe('acme-large');
    expect(request?.messages[0]?.role).toBe('system');
    expect(request?.messages[0]?.content).toContain('You are the assistant of Acme Shop.');
    expect(request?.messages[0]?.content).toContain('URL: https://shop.example/contact');
    expect(request?.messages[0]?.content).toContain(OPENING_HOURS);
    expect(request?.messages.slice(1)).toEqual(job.history);
    expect(request?.grounding).toEqual(doubles.retrieval);
    expect(doubles.requests('getAssistant')).toEqual([{ projectId, assistantId: doubles.assistant.id }]);
  });

  it('asks identity for an assistant once, and again after identity announces a change of it or of its project', async () => {
    const model = new RecordingModel(new LocalResponder());
    await start(model);
    const reply = async (assistantId: string | null) => {
      const job = replyJob({ assistantId });
      const { ended } = await runReply(job);
      await ended;
      return model.requests.at(-1)!.messages[0]!.content;
    };
    const announce = (change: IdentityChange) => infra.pubsub.publish(IDENTITY_CHANGES_CHANNEL, change);
    const assistantId = doubles.assistant!.id;

    await reply(assistantId);
    await reply(assistantId);
    await reply(null);
    expect(doubles.requests('getAssistant')).toEqual([
      { projectId, assistantId },
      { projectId, assistantId: null },
    ]);

    doubles.assistant = { ...doubles.assistant!, instructions: 'You are the night porter.' };
    await announce({ kind: 'assistant-changed', projectId: randomUUID(), assistantId: randomUUID() });
    expect(await reply(assistantId)).toContain('You are the assistant of Acme Shop.');
    await announce({ kind: 'assistant-changed', projectId, assistantId });
    expect(await reply(assistantId)).toContain('You are the night porter.');
    await announce({ kind: 'project-changed', projectId });
    expect(await reply(null)).toContain('You are the night porter.');
    expect(doubles.requests('getAssistant')).toHaveLength(4);
  });

  it('reports a model that fails mid-stream to the conversation with the partial text, and ends the channel with an error', async () => {
    const hours = { documentId: randomUUID(), title: 'Hours', url: 'https://acme.example/hours', score: 0.4 };
    doubles.retrieval = {
      qnas: [],
      chunks: [
        { ...hours, content: 'Open Monday to Friday.' },
        { ...hours, content: 'Closed on holidays.', score: 0.3 },
      ],
    };
    await start(new FailingModel());
    const job = replyJob();
    const { chunks, ended } = await runReply(job);
    const end = await ended;

    // A model that names no sources (as a remote one) cites the documents it was given, each once.
    expect(chunks).toEqual([
      { type: 'delta', delta: 'We are ', sources: [{ title: 'Hours', url: 'https://acme.example/hours' }] },
      { type: 'delta', delta: 'open from ' },
      { type: 'error', code: 'BAD_GATEWAY', error: 'The language model failed to answer.' },
    ]);
    expect(end.type).toBe('error');
    expect(doubles.requests('failReply')).toEqual([
      {
        projectId,
        conversationId: job.conversationId,
        messageId: job.assistantMessageId,
        error: 'The language model failed to answer.',
        partialText: 'We are open from ',
      },
    ]);
    expect(doubles.requests('completeReply')).toEqual([]);
    const order = doubles.log.map((e) => e.subject).filter((s) => s === 'failReply' || s === 'chunk:error');
    expect(order).toEqual(['failReply', 'chunk:error']);
  });

  it('a quiet reply (streamed: false) sends its text as progress at most every QUIET_REPLY_PROGRESS_MS, and all of it with the finish', async () => {
    // 9 words 300 ms apart: 2.4 s of generation, so progress twice at most, never per word.
    const model = new SlowModel('We are open nine to five on weekdays.'.split(/(?<= )/), 300);
    await start(model);
    const job = replyJob({ streamed: false });
    const { chunks, ended } = await listen(infra, job.assistantMessageId, doubles);
    const started = performance.now();
    await infra.jobs.enqueue(INFERENCE_QUEUE, GENERATE_REPLY_JOB, job);
    const end = await ended;

    const text = model.words.join('');
    expect(end).toMatchObject({ type: 'finish', text, sources: [] });
    const progress = chunks.filter((c) => c.type === 'delta');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(Math.floor((performance.now() - started) / QUIET_REPLY_PROGRESS_MS));
    // Each progress carries the words since the one before; the first, the reply's sources.
    const sent = progress.map((c) => (c.type === 'delta' ? c.delta : '')).join('');
    expect(text.startsWith(sent)).toBe(true);
    expect(progress[0]).toMatchObject({ sources: [] });
    expect(progress.slice(1).every((c) => c.type === 'delta' && c.sources === undefined)).toBe(true);
    expect(doubles.requests('completeReply')).toMatchObject([{ text }]);
  });

  it('fails the reply when the assistant does not exist', async () => {
    doubles.assistant = null;
    await start();
    const job = replyJob({ assistantId: randomUUID() });
    const { chunks, ended } = await runReply(job);
    await ended;

    expect(chunks).toEqual([{ type: 'error', code: 'ASSISTANT_NOT_FOUND', error: 'assistant not found' }]);
    expect(doubles.requests('failReply')).toMatchObject([{ messageId: job.assistantMessageId, partialText: '' }]);
  });

  it('still replies, ungrounded, when retrieval fails', async () => {
    doubles.retrieval = new AppError('SERVICE_UNAVAILABLE', 'search is down');
    await start();
    const job = replyJob();
    const { ended } = await runReply(job);
    const end = await ended;

    expect(end.type).toBe('finish');
    expect(end.type === 'finish' && end.text).toMatch(/don't know/);
    // Decided here on the clear text: the event stream carries the text sealed.
    expect(doubles.requests('completeReply')).toMatchObject([{ declined: true }]);
  });

  it('retries recording the reply while the conversation service is unavailable', async () => {
    doubles.completeReplyErrors = [new AppError('SERVICE_UNAVAILABLE', 'conversation is restarting')];
    await start();
    const job = replyJob();
    const { ended } = await runReply(job);
    const end = await ended;

    expect(end.type).toBe('finish');
    expect(doubles.requests('completeReply')).toHaveLength(2);
  });

  it('ends the channel with an error when the reply cannot be recorded', async () => {
    doubles.completeReplyErrors = [new AppError('CONFLICT', 'the conversation is closed')];
    await start();
    const job = replyJob();
    const { chunks, ended } = await runReply(job);
    const end = await ended;

    expect(end).toEqual({ type: 'error', code: 'CONFLICT', error: 'the conversation is closed' });
    expect(chunks.filter((c) => c.type !== 'delta')).toEqual([end]);
    expect(doubles.requests('completeReply')).toHaveLength(1);
  });

  it('runs a stateless completion started through startCompletion, recording nothing', async () => {
    await start();
    const replyId = randomUUID();
    const { chunks, ended } = await listen(infra, replyId, doubles);
    const ack = await infra.services.send(InferenceMessages.startCompletion, {
      projectId,
      replyId,
      assistantId: null,
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'What are your opening hours?' },
      ],
    });
    expect(ack).toEqual({ ok: true });
    const end = await ended;

    expect(
      chunks
        .filter((c) => c.type === 'delta')
        .map((c) => (c.type === 'delta' ? c.delta : ''))
        .join(''),
    ).toBe(OPENING_HOURS);
    expect(end).toMatchObject({ type: 'finish', text: OPENING_HOURS, finishReason: 'stop' });
    expect(doubles.requests('retrieve')).toMatchObject([{ query: 'What are your opening hours?' }]);
    expect(doubles.requests('completeReply')).toEqual([]);
    expect(doubles.requests('failReply')).toEqual([]);
  });

  it('ends a completion with an error chunk when the model fails', async () => {
    await start(new FailingModel());
    const replyId = randomUUID();
    const { chunks, ended } = await listen(infra, replyId, doubles);
    await infra.services.send(InferenceMessages.startCompletion, {
      projectId,
      replyId,
      assistantId: null,
      messages: [{ role: 'user', content: 'What are your opening hours?' }],
    });
    await ended;
    expect(chunks.at(-1)).toEqual({ type: 'error', code: 'BAD_GATEWAY', error: 'The language model failed to answer.' });
    expect(doubles.requests('failReply')).toEqual([]);
  });

  it('answers health', async () => {
    await start();
    expect(await infra.services.send(InferenceMessages.health, {})).toEqual({ ok: true });
  });
});
