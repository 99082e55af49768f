import { useRef, useState } from 'preact/hooks';
import { agentApi, agentFetch } from '../../lib/api';
import { type CannedReply, TYPING_EVERY_MS } from '../../lib/inbox-types';
import { Button, ErrorNotice, useSubmit } from '../ui';
import { cannedQuery, matchCanned } from './canned-suggestions';

/**
 * The reply box, pinned under the transcript. Enter sends (Shift+Enter breaks the line); "/" first
 * lists the canned replies (arrows, Enter inserts, Escape closes); the Note switch writes an
 * internal note instead, which only agents see. While the agent writes a reply, the visitor is told
 * they are typing (one signal per 2 s at most).
 */
export const Composer = ({
  token,
  conversationId,
  closed,
  canned,
  onCannedAsked,
  onSent,
}: {
  token: string;
  conversationId: string;
  closed: boolean;
  canned: CannedReply[];
  /** The agent typed "/": the list may have changed since it was read. */
  onCannedAsked: () => void;
  onSent: (kind: 'reply' | 'note') => void;
}) => {
  const [text, setText] = useState('');
  const [note, setNote] = useState(false);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const lastTyping = useRef(0);
  const input = useRef<HTMLTextAreaElement>(null);

  const query = cannedQuery(text);
  const suggestions = query === null || dismissed === text ? [] : matchCanned(canned, query);
  const open = suggestions.length > 0;
  const current = open ? suggestions[Math.min(active, suggestions.length - 1)] : undefined;
  const listId = `canned-${conversationId}`;

  const send = useSubmit(async () => {
    const content = text.trim();
    if (!content) return;
    await agentApi(token, `/conversations/${conversationId}/${note ? 'notes' : 'messages'}`, { body: { content } });
    setText('');
    onSent(note ? 'note' : 'reply');
  });

  const insert = (reply: CannedReply) => {
    setText(reply.content);
    setActive(0);
    input.current?.focus();
  };

  const typed = (value: string) => {
    if (value === '/' && text === '') onCannedAsked();
    setText(value);
    setActive(0);
    if (note || closed || !value.trim() || cannedQuery(value) !== null) return;
    const now = Date.now();
    if (now - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = now;
    // Best effort: a lost signal only hides the indicator.
    void agentFetch(token, `/conversations/${conversationId}/typing`, { method: 'POST' }).catch(() => undefined);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (Math.min(i, suggestions.length - 1) + step + suggestions.length) % suggestions.length);
    } else if (open && (event.key === 'Enter' || event.key === 'Tab') && current) {
      event.preventDefault();
      insert(current);
    } else if (open && event.key === 'Escape') {
      event.preventDefault();
      setDismissed(text);
    } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (text.trim() && !closed) void send.run();
    }
  };

  return (
    <form
      class={`composer ${note ? 'composer-note' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send.run();
      }}
    >
      {open ? (
        <div class="canned-list" id={listId} role="listbox" aria-label="Canned replies">
          {suggestions.map((reply) => (
            // biome-ignore lint/a11y/useFocusableInteractive: the textarea keeps the focus and points at the active option (aria-activedescendant)
            <div
              key={reply.id}
              id={`${listId}-${reply.id}`}
              role="option"
              aria-selected={reply === current}
              class={reply === current ? 'is-active' : ''}
              onMouseDown={(event) => {
                event.preventDefault();
                insert(reply);
              }}
            >
              <span class="canned-shortcut">/{reply.shortcut}</span> <span>{reply.title}</span>
            </div>
          ))}
        </div>
      ) : null}
      <div class="composer-top">
        <div class="composer-modes" role="group" aria-label="Write">
          <button type="button" class={`mode ${note ? '' : 'is-on'}`} aria-pressed={!note} onClick={() => setNote(false)}>
            Reply
          </button>
          <button type="button" class={`mode mode-note ${note ? 'is-on' : ''}`} aria-pressed={note} onClick={() => setNote(true)}>
            Note
          </button>
        </div>
        <span class="muted small composer-hint">
          {note ? 'Internal note: only agents see this' : 'Enter sends · Shift+Enter new line · / canned replies'}
        </span>
      </div>
      <label class="visually-hidden" for={`composer-${conversationId}`}>
        {note ? 'Note' : 'Reply'}
      </label>
      <textarea
        ref={input}
        id={`composer-${conversationId}`}
        name="reply"
        rows={3}
        maxLength={10000}
        value={text}
        placeholder={note ? 'Write a note for your team…' : closed ? 'The conversation is closed.' : 'Write a reply…'}
        // A textarea cannot take the combobox role: as GitHub's comment box, it stays a textbox
        // that names its suggestions (aria-autocomplete, aria-controls) and the active one.
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={current ? `${listId}-${current.id}` : undefined}
        onInput={(e) => typed(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <ErrorNotice error={send.error} />
      <div class="composer-actions">
        <Button type="submit" busy={send.busy} disabled={!text.trim() || (closed && !note)}>
          {note ? 'Add note' : 'Send reply'}
        </Button>
      </div>
    </form>
  );
};
