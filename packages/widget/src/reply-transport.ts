import { PalaverApiError, type PalaverSource, type PalaverUiChunk, storedMessageId } from '@palaver/client';
import type { ReplyContext } from './session-context';
import { localKey, pendingMessage, placeholder, withMessage } from './session-state';

/**
 * Sends a visitor message and streams the reply. The message and the reply's typing dots show
 * at once. The reply is one message whichever comes first, this stream or the conversation's
 * live events: both name it by its stored id, and the second updates what the first drew.
 */
export const sendMessage = async (session: ReplyContext, content: string): Promise<boolean> => {
  const text = content.trim();
  const { client } = session;
  const { notice } = session.state;
  if (!text || session.state.sending || session.state.phase !== 'ready') return false;
  if (notice?.retryAt && notice.retryAt > Date.now()) return false;
  const userKey = localKey();
  let replyKey = localKey();
  const pending = pendingMessage(userKey, text);
  // A human agent answers a conversation they handle: no assistant reply to wait for.
  const drafts = session.state.handoff !== 'none' && !session.state.closed ? [pending] : [pending, placeholder(replyKey)];
  session.set({ sending: true, notice: null, messages: [...session.state.messages, ...drafts] });
  let accepted = false;
  try {
    const conversationId = await session.ensureConversation();
    const reply = await client.streamMessage(conversationId, { content: text, pageContext: session.pageContext() });
    accepted = true;
    if (reply.type === 'queued') {
      // The header says who answers ("Waiting for a person", then the agent): no notice over the transcript.
      session.set({
        messages: session.state.messages.filter((message) => message.key !== replyKey),
        ...(session.state.handoff === 'none' ? { handoff: 'waiting' as const, released: false } : {}),
      });
      return true;
    }
    const drawn = { key: replyKey };
    try {
      await streamReply(session, reply.chunks, drawn);
    } finally {
      replyKey = drawn.key;
    }
    return true;
  } catch (error) {
    if (accepted) {
      // The message was stored and its reply cut off: both stay (the live events bring what
      // the server kept), and the visitor learns why it stopped.
      const current = session.state.messages.find((message) => message.key === replyKey);
      if (current?.status === 'streaming')
        session.set({
          messages:
            current.text === ''
              ? session.state.messages.filter((message) => message.key !== replyKey)
              : withMessage(session.state.messages, replyKey, { status: 'error' }),
        });
      session.report(error);
      return true;
    }
    // The message was not accepted: take it back (the composer keeps the text) and say why.
    session.set({
      sending: false,
      messages: session.state.messages.filter((message) => message.key !== userKey && message.key !== replyKey),
    });
    session.report(error);
    // A conflict means the server knows better (a reply still streaming, or the conversation ended).
    if (error instanceof PalaverApiError && error.status === 409) await session.refresh();
    return false;
  } finally {
    if (session.state.sending) session.set({ sending: false });
  }
};

/**
 * Draws a reply's UI message stream into the message `drawn.key`. The stream names its stored
 * message: if the live events drew it already, it writes there (and `drawn.key` follows). It
 * writes only while the reply is still streaming (a stored, finished one wins).
 */
const streamReply = async (session: ReplyContext, chunks: ReadableStream<PalaverUiChunk>, drawn: { key: string }): Promise<void> => {
  const update = (patch: Parameters<typeof withMessage>[2]) =>
    session.set({ messages: withMessage(session.state.messages, drawn.key, patch) });
  const named = (id: string) => {
    const found = session.state.messages.find((message) => message.id === id && message.key !== drawn.key);
    if (!found) return update({ id });
    session.set({ messages: session.state.messages.filter((message) => message.key !== drawn.key) });
    drawn.key = found.key;
  };
  const streaming = () => session.state.messages.find((message) => message.key === drawn.key)?.status === 'streaming';
  let answer = '';
  for await (const chunk of chunks as unknown as AsyncIterable<PalaverUiChunk>) {
    if (chunk.type === 'start' && typeof chunk.messageId === 'string') named(chunk.messageId);
    else if (chunk.type === 'text-start') {
      const id = storedMessageId(chunk);
      if (id) named(id);
      const palaver = (chunk.providerMetadata as { palaver?: { sources?: PalaverSource[] } } | undefined)?.palaver;
      if (Array.isArray(palaver?.sources) && palaver.sources.length > 0) update({ sources: palaver.sources });
    } else if (chunk.type === 'text-delta') {
      answer += String(chunk.delta);
      if (streaming()) update({ text: answer });
    } else if (chunk.type === 'error') {
      if (streaming()) update({ status: 'error' });
      session.set({ notice: { text: 'The assistant could not finish this answer. Please try again.' } });
    }
  }
  if (streaming()) update({ status: 'complete' });
};

/**
 * A reply still being generated when the history was loaded (the page was reloaded mid-reply):
 * it is streamed again from its first chunk into its message, and can be stopped meanwhile.
 */
export const resumeReply = async (session: ReplyContext, conversationId: string): Promise<void> => {
  const last = session.state.messages.at(-1);
  if (session.state.sending || last?.role !== 'assistant' || last.status !== 'streaming') return;
  session.set({ sending: true });
  try {
    const chunks = await session.client.resumeReply(conversationId);
    if (chunks) await streamReply(session, chunks, { key: last.key });
    else await session.refreshNow(conversationId);
  } catch (error) {
    session.report(error);
  } finally {
    if (session.state.sending) session.set({ sending: false });
  }
};

/** Stops the reply being streamed: the server keeps the text so far, and the stream ends. */
export const stopReply = async (session: ReplyContext): Promise<void> => {
  const { conversationId } = session.state;
  if (!conversationId || !session.state.sending) return;
  try {
    await session.client.stopReply(conversationId);
  } catch (error) {
    session.report(error);
  }
};
