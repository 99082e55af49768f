/** @jsxImportSource preact */
import { useEffect, useRef, useState } from 'preact/hooks';
import { AgentTyping } from './agent-typing';
import type { ChatSession } from './chat-session';
import { CloseDialog } from './close-dialog';
import { ContactForm } from './contact-form';
import { noticeText } from './error-notice';
import { trapFocus } from './focus-trap';
import { ChatIcon, CloseIcon, EndIcon, MinimizeIcon, PlusIcon, SendIcon, StopIcon } from './icons';
import { MessageList } from './message-list';
import { RatingPrompt } from './rating-prompt';
import { useUnread } from './unread';

export interface WidgetProps {
  session: ChatSession;
  /** Opens at once (preview), instead of waiting for the visitor. */
  initiallyOpen: boolean;
  /** Set by the handle's open()/close(). */
  openSignal: { subscribe(listener: (open: boolean) => void): () => void };
}

const DISMISSED = 'palaver.dismissed';
const dismissedThisSession = (): boolean => {
  try {
    return sessionStorage.getItem(DISMISSED) === '1';
  } catch {
    return false;
  }
};
const rememberDismissed = (): void => {
  try {
    sessionStorage.setItem(DISMISSED, '1');
  } catch {
    // no storage: it may open again on the next page
  }
};

/** The session's state, re-rendering on every change. */
const useSessionState = (session: ChatSession) => {
  const [, changed] = useState(0);
  useEffect(() => {
    const unsubscribe = session.subscribe(() => changed((n) => n + 1));
    changed((n) => n + 1); // a change between the first render and this effect is not missed
    return unsubscribe;
  }, [session]);
  return session.state;
};

/** Re-renders every second while a wait (429) counts down. */
const useCountdown = (until: number | undefined) => {
  const [, tick] = useState(0);
  useEffect(() => {
    if (!until || until <= Date.now()) return;
    const timer = setInterval(() => {
      tick((n) => n + 1);
      if (until <= Date.now()) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
};

export const Widget = ({ session, initiallyOpen, openSignal }: WidgetProps) => {
  const state = useSessionState(session);
  const [open, setOpen] = useState(initiallyOpen);
  const [draft, setDraft] = useState('');
  const [confirmingClose, setConfirmingClose] = useState(false);
  const launcher = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const config = state.config;
  useCountdown(state.notice?.retryAt);
  const unread = useUnread(state.messages, open);

  useEffect(() => openSignal.subscribe(setOpen), [openSignal]);
  // openDelay > 0: the chat opens by itself that many ms after loading, unless the visitor
  // already closed it in this browser session; 0 keeps it closed until clicked.
  const delay = config?.openDelay ?? 0;
  useEffect(() => {
    if (delay <= 0 || initiallyOpen || dismissedThisSession()) return;
    const timer = setTimeout(() => setOpen(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  // Opened before the configuration loaded (data-open): the history comes once it has.
  const ready = state.phase === 'ready';
  useEffect(() => {
    if (open) {
      void session.opened();
      input.current?.focus();
    } else session.closed();
  }, [open, ready]);

  if (!config) return null;
  const waiting = !!state.notice?.retryAt && state.notice.retryAt > Date.now();
  const canSend = state.phase === 'ready' && !state.sending && !waiting && !state.notice?.fatal;
  /** An assistant reply is streaming here: the visitor may stop it. */
  const replying = state.sending && state.messages.some((message) => message.role === 'assistant' && message.status === 'streaming');
  const agent = state.humanAgent;
  // Whether a person can answer, when the project lets visitors ask for one.
  const teamLine = state.team?.enabled ? (state.team.available ? 'a person usually replies within minutes' : "we'll email you") : null;
  // Queued for a person: nobody is named until an agent claims the conversation.
  const waitingForPerson = state.handoff === 'waiting' && !state.closed;
  const title = agent ? (agent.name ?? 'A team member') : waitingForPerson ? 'Waiting for a person' : config.displayName;
  const avatar = agent ? agent.image : (config.assistantAvatar ?? null);
  const role = agent ? 'Team member' : waitingForPerson ? config.displayName : 'AI assistant';

  const close = () => {
    rememberDismissed();
    setOpen(false);
    setConfirmingClose(false);
    launcher.current?.focus();
  };
  const send = async (text: string) => {
    setDraft('');
    const sent = await session.send(text);
    if (!sent) setDraft((current) => current || text);
    input.current?.focus();
  };

  return (
    <div class="palaver-root">
      <button
        type="button"
        class="palaver-launcher"
        ref={launcher}
        aria-label={
          open
            ? 'Close chat'
            : `Open chat with ${config.displayName}${unread > 0 ? ` (${unread} new message${unread > 1 ? 's' : ''})` : ''}`
        }
        aria-expanded={open}
        aria-controls="palaver-panel"
        onClick={() => (open ? close() : setOpen(true))}
      >
        {config.chatButtonIcon ? <img src={config.chatButtonIcon} alt="" /> : open ? <CloseIcon /> : <ChatIcon />}
        {!open && unread > 0 && (
          <span class="palaver-badge" aria-hidden="true">
            {unread > 9 ? '9+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          class="palaver-panel"
          id="palaver-panel"
          ref={panel}
          role="dialog"
          aria-modal="true"
          aria-labelledby="palaver-title"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              if (confirmingClose) setConfirmingClose(false);
              else close();
            } else if (panel.current) trapFocus(event, panel.current);
          }}
        >
          <div class="palaver-header">
            {avatar ? (
              <img class="palaver-avatar" src={avatar} alt="" />
            ) : (
              <span class={`palaver-avatar${waitingForPerson ? ' palaver-avatar--waiting' : ''}`} aria-hidden="true">
                {waitingForPerson ? '…' : title.slice(0, 1).toUpperCase()}
              </span>
            )}
            <div class="palaver-header-text">
              <h2 class="palaver-title" id="palaver-title">
                {title}
              </h2>
              <p class="palaver-subtitle" aria-live="polite">
                {role}
                {teamLine && !agent ? ` · ${teamLine}` : ''}
              </p>
            </div>
            <button
              type="button"
              class="palaver-icon-button"
              aria-label="New conversation"
              title="New conversation"
              onClick={() => session.newConversation()}
            >
              <PlusIcon />
            </button>
            <button
              type="button"
              class="palaver-icon-button"
              aria-label="End conversation"
              title="End conversation"
              disabled={!state.conversationId || state.closed}
              onClick={() => setConfirmingClose(true)}
            >
              <EndIcon />
            </button>
            <button type="button" class="palaver-icon-button" aria-label="Close chat" title="Close chat" onClick={close}>
              <MinimizeIcon />
            </button>
          </div>
          <MessageList
            config={config}
            messages={state.messages}
            notes={state.notes}
            quickPrompts={state.quickPrompts}
            canSend={canSend}
            closed={state.closed}
            onPrompt={(prompt) => void send(prompt)}
            onFeedback={(message, value) => void session.feedback(message, value)}
            onNewConversation={() => {
              session.newConversation();
              input.current?.focus();
            }}
          >
            {session.asksRating && (
              <RatingPrompt key={state.conversationId} rating={state.rating} onRate={(score, comment) => session.rate(score, comment)} />
            )}
          </MessageList>
          <AgentTyping agent={state.agentTyping} />
          {session.offersContact && <ContactForm onSubmit={(email, name) => session.leaveContact(email, name)} />}
          {state.notice && (
            <div class={`palaver-notice${state.notice.info ? ' palaver-notice--info' : ''}`} role={state.notice.info ? 'status' : 'alert'}>
              <span>{noticeText(state.notice)}</span>
              {!state.notice.fatal && (
                <button type="button" aria-label="Dismiss" onClick={() => session.dismissNotice()}>
                  ×
                </button>
              )}
            </div>
          )}
          <form
            class="palaver-composer"
            onSubmit={(event) => {
              event.preventDefault();
              if (canSend) void send(draft);
            }}
          >
            <textarea
              ref={input}
              class="palaver-input"
              rows={1}
              maxLength={10000}
              aria-label="Message"
              placeholder={config.inputPlaceholder}
              value={draft}
              disabled={state.phase !== 'ready' || !!state.notice?.fatal}
              onInput={(event) => {
                setDraft((event.target as HTMLTextAreaElement).value);
                session.typed();
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
                  event.preventDefault();
                  if (canSend) void send(draft);
                }
              }}
            />
            {replying ? (
              <button
                type="button"
                class="palaver-send palaver-stop"
                aria-label="Stop the answer"
                title="Stop"
                onClick={() => void session.stop()}
              >
                <StopIcon />
              </button>
            ) : (
              <button type="submit" class="palaver-send" aria-label="Send message" disabled={!canSend || !draft.trim()}>
                <SendIcon />
              </button>
            )}
          </form>
          {confirmingClose && (
            <CloseDialog
              onCancel={() => setConfirmingClose(false)}
              onConfirm={(reason) => {
                setConfirmingClose(false);
                void session.closeConversation(reason);
              }}
            />
          )}
        </div>
      )}
    </div>
  );
};
