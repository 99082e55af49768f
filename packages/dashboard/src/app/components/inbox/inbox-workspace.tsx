import { useState } from 'preact/hooks';
import { useAgentPresence } from '../../lib/agent-presence';
import { agentApi } from '../../lib/api';
import { roleIn, useAuth } from '../../lib/auth';
import { alertWaiting, useAlertsToggle } from '../../lib/inbox-alerts';
import type { CannedReply } from '../../lib/inbox-types';
import { useProject } from '../../lib/project-context';
import type { AgentConversation, AgentInfo } from '../../lib/types';
import { useAsync } from '../../lib/use-async';
import { Empty, ErrorNotice, useSubmit } from '../ui';
import { CannedManager } from './canned-manager';
import { ConversationList } from './conversation-list';
import { ConversationPane } from './conversation-pane';
import { InboxToolbar } from './inbox-toolbar';
import { useInboxFeed } from './use-inbox-feed';
import { VisitorPanel } from './visitor-panel';

const WIDE = '(min-width: 1280px)';

/** The help desk: the list on the left, the open conversation in the middle, the visitor on the right. */
export const InboxWorkspace = ({ token, me, onStop }: { token: string; me: AgentInfo; onStop: () => void }) => {
  const { project } = useProject();
  const auth = useAuth();
  const alerts = useAlertsToggle();
  useAgentPresence(token);
  const [selected, setSelected] = useState<string | null>(null);
  const [visitorShown, setVisitorShown] = useState(() => window.matchMedia(WIDE).matches);
  const [managing, setManaging] = useState(false);
  const feed = useInboxFeed({
    token,
    me,
    onStop,
    onWaiting: (conversation: AgentConversation) => {
      if (alerts.on) alertWaiting(conversation.title);
    },
  });
  const canned = useAsync((signal) => agentApi<{ data: CannedReply[] }>(token, '/canned-replies', { signal }), [token, managing]);
  const role = roleIn(auth, project.id);
  const canManage = auth.kind === 'token' || role === 'owner' || role === 'admin';

  const claim = useSubmit(async () => {
    const claimed = await agentApi<AgentConversation>(token, '/queue/claim', { method: 'POST' });
    if (claimed) {
      feed.hold(claimed);
      setSelected(claimed.id);
    }
    feed.queue.reload();
  });
  const take = useSubmit(async (id: string) => {
    const taken = await agentApi<AgentConversation>(token, `/conversations/${id}/handoff`, { method: 'POST' });
    if (taken) feed.hold(taken);
    setSelected(id);
    feed.queue.reload();
  });
  const current = selected ? feed.mine.get(selected) : undefined;

  return (
    <div class={`inbox-shell ${current ? 'has-current' : ''} ${current && visitorShown ? 'visitor-open' : ''}`}>
      <InboxToolbar
        name={me.name}
        state={feed.state}
        alerts={alerts}
        canManage={canManage}
        onManage={() => setManaging(true)}
        onStop={token.startsWith('session:') ? null : onStop}
      />
      <ErrorNotice error={feed.error ?? claim.error ?? take.error} />
      <div class="inbox-columns">
        <ConversationList
          waiting={feed.queue.data?.data ?? []}
          loaded={feed.queue.data !== undefined}
          loading={feed.queue.loading}
          error={feed.queue.error}
          onRetry={feed.queue.reload}
          mine={[...feed.mine.values()]}
          selected={selected}
          typing={feed.typing}
          claimBusy={claim.busy}
          onClaim={() => void claim.run()}
          onTake={(id) => void take.run(id)}
          onSelect={setSelected}
        />
        {current ? (
          <ConversationPane
            key={current.id}
            token={token}
            conversation={current}
            version={feed.version}
            canned={canned.data?.data ?? []}
            onCannedAsked={canned.reload}
            visitorTyping={feed.typing.has(current.id)}
            visitorShown={visitorShown}
            onToggleVisitor={() => setVisitorShown((shown) => !shown)}
            onBack={() => setSelected(null)}
            onChanged={feed.changed}
          />
        ) : (
          <div class="conversation-pane conversation-empty">
            <Empty title="No conversation open">Claim the next one, or pick one of yours.</Empty>
          </div>
        )}
        {current && visitorShown ? (
          <VisitorPanel token={token} conversationId={current.id} projectId={project.id} onHide={() => setVisitorShown(false)} />
        ) : null}
      </div>
      {canManage ? <CannedManager projectId={project.id} open={managing} onClose={() => setManaging(false)} /> : null}
    </div>
  );
};
