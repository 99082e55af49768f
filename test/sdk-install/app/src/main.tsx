// A React app as a site's developer writes it, against the packed @palaver/client installed from
// its tarball: useChat with palaverTransport, feedback by the stored message id, and the chat's
// history shown again after a reload (the conversation id kept in localStorage).
import { useChat } from '@ai-sdk/react';
import { type PalaverTransport, palaverTransport } from '@palaver/client';
import type { UIMessage } from 'ai';
import { type FormEvent, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const params = new URLSearchParams(location.search);
const CHAT_ID = 'support';
const STORE = 'palaver-conversations';
const saved: Record<string, string> = JSON.parse(localStorage.getItem(STORE) ?? '{}');

const transport: PalaverTransport = palaverTransport({
  baseUrl: params.get('api') ?? '',
  apiKey: params.get('key') ?? '',
  conversations: saved,
  onConversation: (chatId, conversationId) => {
    saved[chatId] = conversationId;
    localStorage.setItem(STORE, JSON.stringify(saved));
  },
});

const history = async (): Promise<UIMessage[]> => {
  const conversationId = transport.conversationId(CHAT_ID);
  if (!conversationId) return [];
  const { data } = await transport.client.listMessages(conversationId, { limit: 100 });
  return data.map((message) => ({
    id: message.id,
    role: message.role === 'user' ? 'user' : 'assistant',
    parts: message.parts.map((part) => ({ type: 'text' as const, text: part.text })),
  }));
};

// The published types are real (not `any`): a wrong feedback value does not compile.
// @ts-expect-error 'love' is not a feedback value
const _wrongFeedback = () => transport.client.feedback('id', 'love');

const textOf = (message: UIMessage): string => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

function Chat({ initial }: { initial: UIMessage[] }) {
  const { messages, sendMessage, status } = useChat({ id: CHAT_ID, transport, messages: initial });
  const [liked, setLiked] = useState<Record<string, boolean>>({});
  const [draft, setDraft] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void sendMessage({ text: draft });
    setDraft('');
  };
  return (
    <main>
      <ul>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role} data-id={message.id}>
            <span className="text">{textOf(message)}</span>
            {message.role === 'assistant' && status === 'ready' && (
              <button
                type="button"
                aria-pressed={liked[message.id] === true}
                onClick={() => transport.client.feedback(message.id, 'like').then(() => setLiked({ ...liked, [message.id]: true }))}
              >
                Like
              </button>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={submit}>
        <input aria-label="Message" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit">Send</button>
      </form>
      <p data-testid="status">{status}</p>
    </main>
  );
}

function App() {
  const [initial, setInitial] = useState<UIMessage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    history().then(setInitial, (reason: unknown) => setError(String(reason)));
  }, []);
  if (error) return <p role="alert">{error}</p>;
  return initial ? <Chat initial={initial} /> : <p>Loading…</p>;
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
