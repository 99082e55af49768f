import { useEffect, useRef } from 'preact/hooks';
import type { AgentNote } from '../../lib/inbox-types';
import type { Message } from '../../lib/types';
import { textOf } from '../message-list';
import { formatDate } from '../ui';
import { MarkdownText } from './markdown-text';

const ROLE_LABEL = { user: 'Visitor', assistant: 'Assistant', human_agent: 'Agent' } as const;

type Entry = { kind: 'message'; at: string; message: Message } | { kind: 'note'; at: string; note: AgentNote };

const Turn = ({ message }: { message: Message }) => {
  const agent = typeof message.metadata === 'object' ? message.metadata.humanAgent?.name : null;
  return (
    <li class={`turn turn-${message.role}`} data-message-id={message.id}>
      <div class="turn-meta">
        <strong>{message.role === 'human_agent' && agent ? agent : ROLE_LABEL[message.role]}</strong>
        <span class="muted small">{formatDate(message.createdAt)}</span>
        {message.feedback ? (
          <span class={`badge badge-${message.feedback}`}>{message.feedback === 'like' ? 'liked' : 'disliked'}</span>
        ) : null}
        {message.status === 'error' ? <span class="badge badge-danger">failed</span> : null}
      </div>
      {message.role === 'user' ? <p class="turn-text">{textOf(message)}</p> : <MarkdownText text={textOf(message)} />}
    </li>
  );
};

const Note = ({ note }: { note: AgentNote }) => (
  <li class="turn turn-note" data-note-id={note.id}>
    <div class="turn-meta">
      <strong>Note · {note.author.name ?? 'Agent'}</strong>
      <span class="muted small">{formatDate(note.createdAt)}</span>
      <span class="badge badge-note">only agents see this</span>
    </div>
    <MarkdownText text={note.content} />
  </li>
);

/**
 * The conversation's messages with the agents' notes in between, oldest first, in a pane of its
 * own that follows the newest entry (unless the agent scrolled up to read).
 */
export const Transcript = ({ messages, notes, visitorTyping }: { messages: Message[]; notes: AgentNote[]; visitorTyping: boolean }) => {
  const pane = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const entries: Entry[] = [
    ...messages.map((message): Entry => ({ kind: 'message', at: message.createdAt, message })),
    ...notes.map((note): Entry => ({ kind: 'note', at: note.createdAt, note })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  useEffect(() => {
    if (pinned.current && pane.current) pane.current.scrollTop = pane.current.scrollHeight;
  }, [entries.length, visitorTyping]);
  return (
    <div
      ref={pane}
      class="inbox-transcript"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling pane must be reachable by keyboard to scroll it
      tabIndex={0}
      role="region"
      aria-label="Transcript"
      onScroll={(event) => {
        const el = event.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      <ol class="transcript">
        {entries.map((entry) =>
          entry.kind === 'message' ? (
            <Turn key={entry.message.id} message={entry.message} />
          ) : (
            <Note key={entry.note.id} note={entry.note} />
          ),
        )}
      </ol>
      <p class="typing-line muted small" aria-live="polite">
        {visitorTyping ? 'Visitor is typing…' : ''}
      </p>
    </div>
  );
};
