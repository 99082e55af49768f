/** @jsxImportSource preact */
import type { ChatWidgetConfig, Feedback, QuickPrompt } from '@palaver/contracts';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { TranscriptNote, WidgetMessage } from './chat-session';
import { ThumbDownIcon, ThumbUpIcon } from './icons';
import { renderMarkdown } from './markdown';

interface Props {
  config: ChatWidgetConfig;
  messages: WidgetMessage[];
  /** Lines such as "Ada joined", placed among the messages by their time. */
  notes: TranscriptNote[];
  quickPrompts: QuickPrompt[];
  canSend: boolean;
  closed: boolean;
  onPrompt: (prompt: string) => void;
  onFeedback: (message: WidgetMessage, value: Feedback) => void;
  onNewConversation: () => void;
  /** Shown last in the transcript (the rating prompt). */
  children?: ComponentChildren;
}

/** The thumbs under an assistant reply, in their order. */
const FEEDBACK_BUTTONS = [
  { value: 'like', label: 'Helpful', Icon: ThumbUpIcon },
  { value: 'dislike', label: 'Not helpful', Icon: ThumbDownIcon },
] as const satisfies ReadonlyArray<{ value: Feedback; label: string; Icon: typeof ThumbUpIcon }>;

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** When a message was stored: a short time shown on hover or focus, the full date in its title. */
const Time = ({ at }: { at: string }) => {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time class="palaver-time" dateTime={at}>
      {timeFormat.format(date)}
    </time>
  );
};

type Row = { kind: 'message'; message: WidgetMessage } | { kind: 'note'; note: TranscriptNote };

/**
 * Messages in their order, each note before the first stored message written after it. A message
 * not stored yet (being sent) has no server time and stays after every note.
 */
const rowsOf = (messages: WidgetMessage[], notes: TranscriptNote[]): Row[] => {
  const pending = [...notes].sort((a, b) => a.at.localeCompare(b.at));
  const rows: Row[] = [];
  for (const message of messages) {
    while (pending.length > 0 && message.createdAt && pending[0]!.at < message.createdAt)
      rows.push({ kind: 'note', note: pending.shift()! });
    rows.push({ kind: 'message', message });
  }
  for (const note of pending) rows.push({ kind: 'note', note });
  return rows;
};

const Typing = () => (
  <span class="palaver-typing" role="status" aria-label="The assistant is typing">
    <span />
    <span />
    <span />
  </span>
);

const MessageItem = ({ message, onFeedback }: { message: WidgetMessage; onFeedback: Props['onFeedback'] }) => {
  const fromUser = message.role === 'user';
  const canRate = !fromUser && message.id !== null && message.status === 'complete';
  return (
    <div
      class={`palaver-message palaver-message--${message.role}${message.status === 'error' ? ' palaver-message--error' : ''}`}
      data-message-id={message.id ?? undefined}
      data-status={message.status}
      title={message.createdAt ? dateTimeFormat.format(new Date(message.createdAt)) : undefined}
    >
      {message.role === 'human_agent' && (
        <span class="palaver-agent-name">
          {message.agent?.image && <img src={message.agent.image} alt="" />}
          {message.agent?.name ?? 'Team member'}
        </span>
      )}
      {fromUser ? (
        <div class="palaver-bubble">{message.text}</div>
      ) : message.text === '' && message.status === 'streaming' ? (
        <div class="palaver-bubble">
          <Typing />
        </div>
      ) : (
        <div
          class="palaver-bubble"
          dangerouslySetInnerHTML={{ __html: renderMarkdown(message.text || (message.status === 'error' ? 'No answer.' : '')) }}
        />
      )}
      {message.sources.length > 0 && (
        <p class="palaver-sources">
          Sources:{' '}
          {message.sources.map((source, index) => (
            <span key={index}>
              {index > 0 && ' · '}
              {source.url && /^https?:\/\//.test(source.url) ? (
                <a href={source.url} target="_blank" rel="noopener noreferrer nofollow">
                  {source.title || source.url}
                </a>
              ) : (
                source.title
              )}
            </span>
          ))}
        </p>
      )}
      {(canRate || message.createdAt) && (
        <div class="palaver-actions">
          {message.createdAt && <Time at={message.createdAt} />}
          {canRate &&
            FEEDBACK_BUTTONS.map(({ value, label, Icon }) => (
              <button
                key={value}
                type="button"
                class="palaver-feedback"
                aria-label={label}
                aria-pressed={message.feedback === value}
                onClick={() => onFeedback(message, value)}
              >
                <Icon />
              </button>
            ))}
        </div>
      )}
    </div>
  );
};

/** The conversation: welcome message, quick prompts, messages, typing indicator, end state. */
export const MessageList = (props: Props) => {
  const log = useRef<HTMLDivElement>(null);
  const last = props.messages[props.messages.length - 1];
  const pinned = useRef(true);
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [props.messages.length, props.notes.length, last?.text, props.closed, !!props.children]);
  // Whatever appears under the transcript (a notice, the contact form) shrinks it: a visitor who
  // was reading the end keeps seeing it, so nothing covers the last message.
  useEffect(() => {
    const element = log.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (pinned.current) element.scrollTo({ top: element.scrollHeight });
    });
    observer.observe(element);
    const onScroll = () => {
      pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', onScroll);
    };
  }, []);
  const visitorSpoke = props.messages.some((message) => message.role === 'user');
  return (
    <div class="palaver-log" ref={log} role="log" aria-live="polite" aria-label="Conversation">
      {props.config.welcomeMessage && (
        <div class="palaver-message palaver-message--assistant palaver-welcome">
          <div class="palaver-bubble" dangerouslySetInnerHTML={{ __html: renderMarkdown(props.config.welcomeMessage) }} />
        </div>
      )}
      {!visitorSpoke && props.quickPrompts.length > 0 && (
        <div class="palaver-prompts" role="group" aria-label="Suggested questions">
          {props.quickPrompts.map((prompt) => (
            <button
              type="button"
              class="palaver-prompt"
              key={prompt.id}
              disabled={!props.canSend}
              onClick={() => props.onPrompt(prompt.prompt)}
            >
              {prompt.title}
            </button>
          ))}
        </div>
      )}
      {rowsOf(props.messages, props.notes).map((row) =>
        row.kind === 'message' ? (
          <MessageItem key={row.message.key} message={row.message} onFeedback={props.onFeedback} />
        ) : (
          <p key={row.note.key} class="palaver-note" title={dateTimeFormat.format(new Date(row.note.at))}>
            {row.note.text}
          </p>
        ),
      )}
      {props.closed && (
        <div class="palaver-ended">
          <span>This conversation has ended.</span>
          <button type="button" class="palaver-link-button" onClick={props.onNewConversation}>
            Start a new conversation
          </button>
        </div>
      )}
      {props.children}
    </div>
  );
};
