/** @jsxImportSource preact */
import type { ChatWidgetConfig, Feedback, QuickPrompt } from '@palaver/contracts';
import { useEffect, useRef } from 'preact/hooks';
import type { WidgetMessage } from './chat-session';
import { ThumbDownIcon, ThumbUpIcon } from './icons';
import { renderMarkdown } from './markdown';

interface Props {
  config: ChatWidgetConfig;
  messages: WidgetMessage[];
  quickPrompts: QuickPrompt[];
  canSend: boolean;
  closed: boolean;
  onPrompt: (prompt: string) => void;
  onFeedback: (message: WidgetMessage, value: Feedback) => void;
  onNewConversation: () => void;
}

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
      {canRate && (
        <div class="palaver-actions">
          <button
            type="button"
            class="palaver-feedback"
            aria-label="Helpful"
            aria-pressed={message.feedback === 'like'}
            onClick={() => onFeedback(message, 'like')}
          >
            <ThumbUpIcon />
          </button>
          <button
            type="button"
            class="palaver-feedback"
            aria-label="Not helpful"
            aria-pressed={message.feedback === 'dislike'}
            onClick={() => onFeedback(message, 'dislike')}
          >
            <ThumbDownIcon />
          </button>
        </div>
      )}
    </div>
  );
};

/** The conversation: welcome message, quick prompts, messages, typing indicator, end state. */
export const MessageList = (props: Props) => {
  const log = useRef<HTMLDivElement>(null);
  const last = props.messages[props.messages.length - 1];
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [props.messages.length, last?.text, props.closed]);
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
      {props.messages.map((message) => (
        <MessageItem key={message.key} message={message} onFeedback={props.onFeedback} />
      ))}
      {props.closed && (
        <div class="palaver-ended">
          <span>This conversation has ended.</span>
          <button type="button" class="palaver-link-button" onClick={props.onNewConversation}>
            Start a new conversation
          </button>
        </div>
      )}
    </div>
  );
};
