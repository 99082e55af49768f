import type { PalaverClient } from '@palaver/client';
import type { ConversationLiveEvent } from '@palaver/contracts';
import { DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts/widget-defaults';
import { describe, expect, it, vi } from 'vitest';
import { ChatSession } from './chat-session';
import { storedMessage } from './stored-message.fixture';

const ID = 'c-1';
const MESSAGE = storedMessage('m-1', 'user', 'A person, please', { createdAt: '2026-01-01T10:00:00.000Z' });
const conversation = (patch: object) => ({ id: ID, status: 'open', isHumanHandled: false, ...patch });
const ADA = { name: 'Ada', image: null };

const storage = () => {
  const items = new Map<string, string>([[`palaver.conversation.pk_test`, ID]]);
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
};

const setUp = () => {
  const { readable, writable } = new TransformStream<ConversationLiveEvent, ConversationLiveEvent>();
  const writer = writable.getWriter();
  const rateConversation = vi.fn(async (_id: string, body: { score: number; comment?: string }) => ({
    object: 'conversation.rating',
    conversationId: ID,
    score: body.score,
    comment: body.comment ?? null,
    ratedAt: '2026-01-01T10:09:00.000Z',
  }));
  const client = {
    apiKey: 'pk_test',
    getProject: async () => ({ chatWidgetConfig: DEFAULT_CHAT_WIDGET_CONFIG, quickPrompts: [] }),
    getConversation: async () => ({ ...conversation({}), messages: [MESSAGE] }),
    conversationEvents: async () => readable,
    resumeReply: async () => null,
    rateConversation,
  } as unknown as PalaverClient;
  const store = storage();
  const session = new ChatSession({ client, storage: store, pageContext: () => null });
  let version = 0;
  const emit = (type: string, patch: object, at: string) =>
    writer.write({
      id: String(++version),
      type,
      occurredAt: at,
      conversation: conversation(patch),
      message: null,
    } as unknown as ConversationLiveEvent);
  return { session, emit, rateConversation, store };
};

describe('the widget session during a handoff', () => {
  it('waits for a person without naming one, notes who joined once, and asks for a rating after the release', async () => {
    const { session, emit, rateConversation, store } = setUp();
    await session.load();
    await session.opened();
    expect(session.state.messages).toHaveLength(1);

    await emit('handoff.requested', { isHumanHandled: true }, '2026-01-01T10:00:01.000Z');
    await vi.waitFor(() => expect(session.state.handoff).toBe('waiting'));
    expect(session.state.humanAgent).toBeNull();
    expect(session.asksRating).toBe(false);

    await emit('handoff.claimed', { isHumanHandled: true, humanAgent: ADA }, '2026-01-01T10:02:00.000Z');
    await vi.waitFor(() => expect(session.state.handoff).toBe('claimed'));
    expect(session.state.humanAgent).toEqual(ADA);
    expect(session.state.notes).toEqual([{ key: 'joined-2', text: 'Ada joined', at: '2026-01-01T10:02:00.000Z' }]);

    await emit('handoff.released', { isHumanHandled: false }, '2026-01-01T10:08:00.000Z');
    await vi.waitFor(() => expect(session.state.handoff).toBe('none'));
    expect(session.state.released).toBe(true);
    expect(session.asksRating).toBe(true);
    expect(session.state.notes).toHaveLength(1);

    expect(await session.rate(4, '  Kind and quick ')).toBe(true);
    expect(rateConversation).toHaveBeenCalledWith(ID, { score: 4, comment: 'Kind and quick' });
    expect(session.state.rating).toEqual({ score: 4, comment: 'Kind and quick' });
    expect(JSON.parse(store.items.get(`palaver.rating.${ID}`)!)).toEqual({ score: 4, comment: 'Kind and quick' });
    expect(await session.rate(5, '')).toBe(true);
    expect(rateConversation).toHaveBeenLastCalledWith(ID, { score: 5 });
    session.dispose();
  });

  it('keeps following the live events after the panel closes', async () => {
    const { session, emit } = setUp();
    await session.load();
    await session.opened();
    session.closed();
    await emit('handoff.claimed', { isHumanHandled: true, humanAgent: ADA }, '2026-01-01T10:02:00.000Z');
    await vi.waitFor(() => expect(session.state.humanAgent).toEqual(ADA));
    session.dispose();
  });
});
