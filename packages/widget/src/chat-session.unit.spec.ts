import type { PalaverClient, PalaverUiChunk } from '@palaver/client';
import type { ConversationLiveEvent } from '@palaver/contracts';
import { DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts/widget-defaults';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatSession } from './chat-session';
import { storedMessage } from './stored-message.fixture';

const CONVERSATION = { id: 'c-1', status: 'open', isHumanHandled: false, humanAgent: null };
const USER_ID = '00000000-0000-4000-8000-000000000001';
const REPLY_ID = '00000000-0000-4000-8000-000000000002';

/** A stream the test writes to, chunk by chunk. */
const pipe = <T>() => {
  const { readable, writable } = new TransformStream<T, T>();
  const writer = writable.getWriter();
  return { readable, write: (chunk: T) => writer.write(chunk), close: () => writer.close() };
};

const stored = (id: string, role: 'user' | 'assistant', text: string, status: 'streaming' | 'complete'): unknown =>
  storedMessage(id, role, text, { status });
let events = 0;
const event = (message: unknown): ConversationLiveEvent =>
  ({ id: String(++events), type: 'message.created', conversation: CONVERSATION, message }) as unknown as ConversationLiveEvent;

/**
 * A client whose reply stream answers only when the test says (latency on that request alone),
 * and whose live events the test writes.
 */
const fakeClient = () => {
  const live = pipe<ConversationLiveEvent>();
  const reply = pipe<PalaverUiChunk>();
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const client = {
    apiKey: 'pk_test',
    getProject: async () => ({ chatWidgetConfig: DEFAULT_CHAT_WIDGET_CONFIG, quickPrompts: [] }),
    createConversation: async () => CONVERSATION,
    conversationEvents: async () => live.readable,
    streamMessage: async () => {
      await answered;
      return { type: 'stream', chunks: reply.readable };
    },
  } as unknown as PalaverClient;
  return { client, live, reply, answer };
};

const replyChunks: PalaverUiChunk[] = [
  { type: 'start' },
  { type: 'text-start', id: REPLY_ID, providerMetadata: { palaver: { messageId: REPLY_ID } } },
  { type: 'text-delta', id: REPLY_ID, delta: 'Open ' },
  { type: 'text-delta', id: REPLY_ID, delta: 'daily.' },
  { type: 'text-end', id: REPLY_ID },
  { type: 'finish' },
];

const shown = (session: ChatSession) => session.state.messages.map(({ id, role, text, status }) => ({ id, role, text, status }));
const ONE_REPLY = [
  { id: USER_ID, role: 'user', text: 'When are you open?', status: 'complete' },
  { id: REPLY_ID, role: 'assistant', text: 'Open daily.', status: 'complete' },
];

describe('ChatSession: one reply, whichever of its stream and the live events comes first', () => {
  beforeEach(() => vi.stubGlobal('location', { href: 'https://shop.example/page', origin: 'https://shop.example' }));
  afterEach(() => vi.unstubAllGlobals());

  const start = async () => {
    const fake = fakeClient();
    const session = new ChatSession({ client: fake.client, pageContext: () => null });
    await session.load();
    await session.opened();
    const sent = session.send('When are you open?');
    // At once: the visitor's message and the reply's typing dots (an empty streaming message).
    expect(shown(session)).toEqual([
      { id: null, role: 'user', text: 'When are you open?', status: 'complete' },
      { id: null, role: 'assistant', text: '', status: 'streaming' },
    ]);
    return { ...fake, session, sent };
  };

  it('the live events first: the finished reply fills the typing dots, and the late stream adds nothing', async () => {
    const { session, sent, live, reply, answer } = await start();
    await live.write(event(stored(USER_ID, 'user', 'When are you open?', 'complete')));
    await live.write(event(stored(REPLY_ID, 'assistant', 'Open daily.', 'complete')));
    await vi.waitFor(() => expect(shown(session)).toEqual(ONE_REPLY));
    answer();
    for (const chunk of replyChunks) await reply.write(chunk);
    await reply.close();
    expect(await sent).toBe(true);
    expect(shown(session)).toEqual(ONE_REPLY);
    session.dispose();
  });

  it('the stream first: it writes the reply, and the live event of the same message adds nothing', async () => {
    const { session, sent, live, reply, answer } = await start();
    answer();
    for (const chunk of replyChunks.slice(0, 3)) await reply.write(chunk);
    await vi.waitFor(() => expect(shown(session)[1]).toEqual({ id: REPLY_ID, role: 'assistant', text: 'Open ', status: 'streaming' }));
    await live.write(event(stored(USER_ID, 'user', 'When are you open?', 'complete')));
    await live.write(event(stored(REPLY_ID, 'assistant', 'Open daily.', 'complete')));
    for (const chunk of replyChunks.slice(3)) await reply.write(chunk);
    await reply.close();
    expect(await sent).toBe(true);
    await vi.waitFor(() => expect(shown(session)).toEqual(ONE_REPLY));
    session.dispose();
  });

  it('the stream names the reply, then the live events announce it while it streams: still one', async () => {
    const { session, sent, live, reply, answer } = await start();
    answer();
    for (const chunk of replyChunks.slice(0, 2)) await reply.write(chunk);
    await vi.waitFor(() => expect(shown(session)[1]?.id).toBe(REPLY_ID));
    await live.write(event(stored(REPLY_ID, 'assistant', '', 'streaming')));
    await live.write(event(stored(USER_ID, 'user', 'When are you open?', 'complete')));
    for (const chunk of replyChunks.slice(2)) await reply.write(chunk);
    await reply.close();
    expect(await sent).toBe(true);
    await vi.waitFor(() => expect(shown(session)).toEqual(ONE_REPLY));
    session.dispose();
  });
});
