import { type ConversationStreamEvent, type PalaverClient, TYPING_MIN_INTERVAL_MS, TYPING_TTL_MS } from '@palaver/client';
import type { ConversationLiveEvent } from '@palaver/contracts';
import { DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts/widget-defaults';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatSession } from './chat-session';
import { storedMessage } from './stored-message.fixture';

const ID = 'c-1';
const ADA = { id: '00000000-0000-4000-8000-00000000000a', name: 'Ada', image: 'https://cdn.example/ada.png' };
const conversation = (patch: object) => ({ id: ID, status: 'open', isHumanHandled: false, humanAgent: null, ...patch });
const ASKED = storedMessage('m-0', 'user', 'A person, please');
const CLAIMED = { isHumanHandled: true, humanAgent: { name: 'Ada', image: ADA.image } };

/** Runs what is queued (stream reads, promises): the timers are fake, this is not. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A session on a stored conversation, whose live events the test writes, one stream per connection. */
const setUp = () => {
  const streams: Array<WritableStreamDefaultWriter<ConversationStreamEvent>> = [];
  const conversationEvents = vi.fn(async (_id: string, _options: { after?: string | null }) => {
    const { readable, writable } = new TransformStream<ConversationStreamEvent, ConversationStreamEvent>();
    streams.push(writable.getWriter());
    return readable;
  });
  const sendTyping = vi.fn(async (_id: string) => undefined);
  const client = {
    apiKey: 'pk_test',
    getProject: async () => ({ chatWidgetConfig: DEFAULT_CHAT_WIDGET_CONFIG, quickPrompts: [] }),
    getConversation: async () => ({ ...conversation({}), messages: [ASKED] }),
    conversationEvents,
    resumeReply: async () => null,
    sendTyping,
  } as unknown as PalaverClient;
  const items = new Map([['palaver.conversation.pk_test', ID]]);
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  const session = new ChatSession({ client, storage, pageContext: () => null });
  let version = 0;
  const emit = async (event: ConversationStreamEvent) => {
    await streams.at(-1)!.write(event);
    await flush();
  };
  const change = (type: string, patch: object, message: unknown = null) =>
    emit({
      id: String(++version),
      type,
      occurredAt: new Date().toISOString(),
      conversation: conversation(patch),
      message,
    } as unknown as ConversationLiveEvent);
  const typing = (conversationId = ID) =>
    emit({ type: 'typing', occurredAt: new Date().toISOString(), conversationId, by: 'agent', humanAgent: ADA });
  const start = async () => {
    await session.load();
    await session.opened();
    await flush();
  };
  return { session, sendTyping, conversationEvents, streams, change, typing, start };
};

describe('typing indicators in the widget', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('tells only an agent holding the conversation that the visitor types, at most once per 2 s', async () => {
    const { session, sendTyping, change, start } = setUp();
    await start();
    session.typed();
    expect(sendTyping).not.toHaveBeenCalled();

    await change('handoff.requested', { isHumanHandled: true });
    session.typed();
    expect(sendTyping).not.toHaveBeenCalled();

    await change('handoff.claimed', CLAIMED);
    session.typed();
    session.typed();
    expect(sendTyping).toHaveBeenCalledTimes(1);
    expect(sendTyping).toHaveBeenCalledWith(ID);
    vi.advanceTimersByTime(TYPING_MIN_INTERVAL_MS - 1);
    session.typed();
    expect(sendTyping).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    session.typed();
    expect(sendTyping).toHaveBeenCalledTimes(2);

    // A refused signal is no concern of the visitor's.
    sendTyping.mockRejectedValueOnce(new Error('409'));
    vi.advanceTimersByTime(TYPING_MIN_INTERVAL_MS);
    session.typed();
    await flush();
    expect(sendTyping).toHaveBeenCalledTimes(3);
    expect(session.state.notice).toBeNull();

    await change('conversation.closed', { ...CLAIMED, status: 'closed' });
    vi.advanceTimersByTime(TYPING_MIN_INTERVAL_MS);
    session.typed();
    expect(sendTyping).toHaveBeenCalledTimes(3);
    session.dispose();
  });

  it('shows the agent typing for 5 s after their last signal, and no longer once their message arrives', async () => {
    const { session, change, typing, start } = setUp();
    await start();
    await change('handoff.claimed', CLAIMED);
    await typing();
    expect(session.state.agentTyping).toEqual({ name: 'Ada', image: ADA.image });
    vi.advanceTimersByTime(TYPING_TTL_MS - 100);
    await typing();
    vi.advanceTimersByTime(TYPING_TTL_MS - 100);
    expect(session.state.agentTyping?.name).toBe('Ada');
    vi.advanceTimersByTime(100);
    expect(session.state.agentTyping).toBeNull();

    await typing();
    expect(session.state.agentTyping?.name).toBe('Ada');
    const reply = storedMessage('m-1', 'human_agent', 'Hi, Ada here.');
    await change('message.created', CLAIMED, reply);
    expect(session.state.agentTyping).toBeNull();
    expect(session.state.messages.map((message) => message.text)).toEqual(['A person, please', 'Hi, Ada here.']);

    // Another conversation's typing is not this one's.
    await typing('c-2');
    expect(session.state.agentTyping).toBeNull();

    await typing();
    await change('handoff.released', { isHumanHandled: false });
    expect(session.state.agentTyping).toBeNull();
    session.dispose();
  });

  it('resumes the live events after the last stored event, not after a typing signal (which has no id)', async () => {
    const { session, conversationEvents, streams, change, typing, start } = setUp();
    await start();
    await change('handoff.claimed', CLAIMED);
    await typing();
    await streams.at(-1)!.close();
    await flush();
    vi.advanceTimersByTime(500);
    await flush();
    expect(conversationEvents).toHaveBeenCalledTimes(2);
    expect(conversationEvents.mock.calls[1]![1]).toMatchObject({ after: '1' });
    session.dispose();
  });
});
