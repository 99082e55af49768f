import type { PageContext } from '@palaver/contracts';
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { PalaverClient, type PalaverClientOptions } from './client';
import { storedDeviceId } from './device-id';
import { type PalaverUiChunk, storedMessageId } from './ui-stream';

export interface PalaverTransportOptions extends Omit<PalaverClientOptions, 'deviceId'> {
  /** Defaults to a device id kept in localStorage (see `storedDeviceId`). */
  deviceId?: PalaverClientOptions['deviceId'];
  /** Page context sent with each message; defaults to the page's url and title in a browser. */
  pageContext?: () => PageContext | null;
  /** Called when a chat gets its Palaver conversation, so an app can store the pair. */
  onConversation?: (chatId: string, conversationId: string) => void;
  /** Known pairs of chat id and conversation id (e.g. restored from storage). */
  conversations?: Record<string, string>;
}

export interface PalaverTransport extends ChatTransport<UIMessage> {
  readonly client: PalaverClient;
  conversationId(chatId: string): string | undefined;
}

const browserPageContext = (): PageContext | null =>
  typeof document === 'undefined'
    ? null
    : { url: location.href, title: document.title, textSelection: globalThis.getSelection?.()?.toString() || undefined };

const lastUserText = (messages: UIMessage[]): string => {
  const last = [...messages].reverse().find((message) => message.role === 'user');
  return (last?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
};

/**
 * Puts the stored message id on the message: `start` (and `start-step`) are held back until the
 * `text-start` that names the stored message (`providerMetadata.palaver.messageId`), then `start`
 * is sent with `messageId`, so `message.id` is the id that feedback takes.
 */
const withStoredMessageId = (conversationId: string) => {
  let held: PalaverUiChunk[] | null = null;
  const release = (controller: TransformStreamDefaultController<UIMessageChunk>, messageId: string | undefined) => {
    for (const chunk of held ?? []) {
      if (chunk.type !== 'start') controller.enqueue(chunk as UIMessageChunk);
      else
        controller.enqueue({
          ...chunk,
          ...(messageId ? { messageId } : {}),
          messageMetadata: { palaver: { conversationId, ...(messageId ? { messageId } : {}) } },
        } as UIMessageChunk);
    }
    held = null;
  };
  return new TransformStream<PalaverUiChunk, UIMessageChunk>({
    transform(chunk, controller) {
      if (chunk.type === 'start') held = [];
      if (held && (chunk.type === 'start' || chunk.type === 'start-step')) {
        held.push(chunk);
        return;
      }
      if (held) release(controller, storedMessageId(chunk));
      controller.enqueue(chunk as UIMessageChunk);
    },
    flush(controller) {
      if (held) release(controller, undefined);
    },
  });
};

/**
 * A `ChatTransport` for the AI SDK's `useChat`: starts the visitor's session (`identity/init`
 * with a device id), creates one Palaver conversation per chat, sends the last user message with
 * the page context, and streams the reply with the stored message id on the message. A reply
 * still being generated after a reload resumes (`reconnectToStream`) for a chat whose conversation
 * is known (`conversations`).
 */
export const palaverTransport = (options: PalaverTransportOptions): PalaverTransport => {
  const client = new PalaverClient({ ...options, deviceId: options.deviceId ?? (() => storedDeviceId()) });
  const conversations = new Map(Object.entries(options.conversations ?? {}));
  const pending = new Map<string, Promise<string>>();

  const conversationFor = (chatId: string): Promise<string> => {
    const known = conversations.get(chatId);
    if (known) return Promise.resolve(known);
    let creating = pending.get(chatId);
    if (!creating) {
      const pageUrl = typeof location !== 'undefined' && /^https?:/.test(location.href) ? location.href : undefined;
      creating = client
        .createConversation(pageUrl ? { pageUrl } : undefined)
        .then(({ id }) => {
          conversations.set(chatId, id);
          options.onConversation?.(chatId, id);
          return id;
        })
        .finally(() => pending.delete(chatId));
      pending.set(chatId, creating);
    }
    return creating;
  };

  return {
    client,
    conversationId: (chatId) => conversations.get(chatId),
    async sendMessages({ chatId, messages, abortSignal }) {
      const conversationId = await conversationFor(chatId);
      const pageContext = (options.pageContext ?? browserPageContext)();
      const reply = await client.streamMessage(conversationId, { content: lastUserText(messages), pageContext }, abortSignal);
      if (reply.type === 'queued') {
        // A human agent handles the conversation: no AI reply; the confirmation is metadata.
        return new ReadableStream<UIMessageChunk>({
          start(controller) {
            controller.enqueue({ type: 'start', messageMetadata: { palaver: { conversationId, queued: true, notice: reply.text } } });
            controller.enqueue({ type: 'finish' });
            controller.close();
          },
        });
      }
      return reply.chunks.pipeThrough(withStoredMessageId(conversationId));
    },
    /** `useChat({ resume: true })`: the reply still being generated for the chat's conversation, from its first chunk. */
    async reconnectToStream({ chatId }) {
      const conversationId = conversations.get(chatId);
      if (!conversationId) return null;
      const chunks = await client.resumeReply(conversationId);
      return chunks ? chunks.pipeThrough(withStoredMessageId(conversationId)) : null;
    },
  };
};
