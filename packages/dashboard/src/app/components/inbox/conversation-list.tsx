import type { AgentConversation } from '../../lib/types';
import { textOf } from '../message-list';
import { Button, Empty, ErrorNotice, formatDate, Loading } from '../ui';

/** The left column: who waits for a person (take one, or claim the longest waiting), and what this agent holds. */
export const ConversationList = ({
  waiting,
  loaded,
  loading,
  error,
  onRetry,
  mine,
  selected,
  typing,
  claimBusy,
  onClaim,
  onTake,
  onSelect,
}: {
  waiting: AgentConversation[];
  loaded: boolean;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  mine: AgentConversation[];
  selected: string | null;
  typing: Map<string, number>;
  claimBusy: boolean;
  onClaim: () => void;
  onTake: (id: string) => void;
  onSelect: (id: string) => void;
}) => (
  <nav class="conversation-list" aria-label="Conversations">
    <div class="list-section">
      <div class="list-heading">
        <h2 class="pane-title">Waiting ({waiting.length})</h2>
        <Button class="button-small" busy={claimBusy} disabled={waiting.length === 0} onClick={onClaim}>
          Claim next
        </Button>
      </div>
      {loading && !loaded ? <Loading /> : null}
      <ErrorNotice error={error} onRetry={onRetry} />
      {loaded && waiting.length === 0 ? <Empty title="Nobody is waiting">New requests appear here live.</Empty> : null}
      <ul class="item-list" data-testid="queue">
        {waiting.map((c) => (
          <li key={c.id} class="queue-item">
            <p class="item-title">{c.title ?? 'Untitled conversation'}</p>
            {c.unansweredMessages
              .slice(-2)
              .filter((m) => textOf(m) !== c.title)
              .map((m) => (
                <p key={m.id} class="item-text">
                  “{textOf(m)}”
                </p>
              ))}
            {c.contact ? (
              <p class="small" data-testid="queue-contact">
                Left an email: {c.contact.name ? `${c.contact.name} <${c.contact.email}>` : c.contact.email}
              </p>
            ) : null}
            <div class="row row-spread">
              <span class="muted small">waiting since {formatDate(c.handoffRequestedAt)}</span>
              <Button variant="secondary" class="button-small" onClick={() => onTake(c.id)} aria-label={`Take “${c.title ?? c.id}”`}>
                Take
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </div>
    <div class="list-section">
      <div class="list-heading">
        <h2 class="pane-title">Yours ({mine.length})</h2>
      </div>
      {mine.length === 0 ? <Empty title="You hold no conversation" /> : null}
      <ul class="item-list">
        {mine.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              class={`conversation-pick ${c.id === selected ? 'is-selected' : ''}`}
              aria-pressed={c.id === selected}
              onClick={() => onSelect(c.id)}
            >
              <span class="item-title">{c.title ?? 'Untitled conversation'}</span>
              <span class="muted small">
                {typing.has(c.id) ? 'typing… · ' : ''}
                {c.unansweredMessages.length ? `${c.unansweredMessages.length} unanswered` : 'answered'} · {formatDate(c.lastInteractionAt)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  </nav>
);
