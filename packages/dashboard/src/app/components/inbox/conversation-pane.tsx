import { useState } from 'preact/hooks';
import { agentApi } from '../../lib/api';
import type { AgentNote, CannedReply } from '../../lib/inbox-types';
import type { AgentConversation, Message } from '../../lib/types';
import { useAsync } from '../../lib/use-async';
import { Button, ConfirmDialog, ErrorNotice, Loading } from '../ui';
import './conversation.css';
import { Composer } from './composer';
import { Transcript } from './transcript';

/**
 * One held conversation: its header with release and close (each asked first), the transcript with
 * the notes, and the composer pinned at the bottom.
 */
export const ConversationPane = ({
  token,
  conversation,
  version,
  canned,
  onCannedAsked,
  visitorTyping,
  visitorShown,
  onToggleVisitor,
  onBack,
  onChanged,
}: {
  token: string;
  conversation: AgentConversation;
  version: number;
  canned: CannedReply[];
  onCannedAsked: () => void;
  visitorTyping: boolean;
  visitorShown: boolean;
  onToggleVisitor: () => void;
  onBack: () => void;
  onChanged: () => void;
}) => {
  const base = `/conversations/${conversation.id}`;
  const messages = useAsync((signal) => agentApi<{ data: Message[] }>(token, `${base}/messages`, { signal }), [conversation.id, version]);
  const notes = useAsync((signal) => agentApi<{ data: AgentNote[] }>(token, `${base}/notes`, { signal }), [conversation.id, version]);
  const [confirmRelease, setConfirmRelease] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const closed = conversation.status === 'closed';
  const title = conversation.title ?? 'Untitled conversation';

  return (
    <section class="conversation-pane" aria-label={title}>
      <header class="pane-header">
        <Button variant="secondary" class="button-small pane-back" onClick={onBack} aria-label="Back to the list">
          ←
        </Button>
        <h2 class="pane-title pane-title-grow">{title}</h2>
        <div class="row pane-actions">
          <Button variant="secondary" class="button-small" onClick={() => setConfirmRelease(true)} aria-label="Release to the assistant">
            Release
          </Button>
          <Button
            variant="secondary"
            class="button-small"
            onClick={() => setConfirmClose(true)}
            disabled={closed}
            aria-label="Close the conversation"
          >
            Close
          </Button>
          <Button variant="secondary" class="button-small visitor-toggle" aria-expanded={visitorShown} onClick={onToggleVisitor}>
            Visitor
          </Button>
        </div>
      </header>
      <ConfirmDialog
        open={confirmClose}
        title="Close this conversation?"
        body={<p>The conversation ends; the visitor sees it closed.</p>}
        confirmLabel="Close"
        onConfirm={async () => {
          await agentApi(token, `${base}/close`, { body: {} });
          onChanged();
        }}
        onClose={() => setConfirmClose(false)}
      />
      <ConfirmDialog
        open={confirmRelease}
        title="Release to the assistant?"
        body={<p>The assistant answers the visitor again, and the conversation leaves your list.</p>}
        confirmLabel="Release"
        onConfirm={async () => {
          await agentApi(token, `${base}/release`, { method: 'POST' });
          onChanged();
        }}
        onClose={() => setConfirmRelease(false)}
      />
      {messages.loading && !messages.data ? <Loading /> : null}
      <ErrorNotice error={messages.error} onRetry={messages.reload} />
      <ErrorNotice error={notes.error} onRetry={notes.reload} />
      <Transcript messages={messages.data?.data ?? []} notes={notes.data?.data ?? []} visitorTyping={visitorTyping} />
      <Composer
        key={conversation.id}
        token={token}
        conversationId={conversation.id}
        closed={closed}
        canned={canned}
        onCannedAsked={onCannedAsked}
        onSent={(kind) => {
          if (kind === 'note') notes.reload();
          else messages.reload();
          onChanged();
        }}
      />
    </section>
  );
};
