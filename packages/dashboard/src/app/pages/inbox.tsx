import { useState } from 'preact/hooks';
import { AgentPicker } from '../components/inbox/agent-picker';
import { InboxWorkspace } from '../components/inbox/inbox-workspace';
import '../components/inbox/inbox.css';
import { ErrorNotice, Loading, PageHeader } from '../components/ui';
import { clearAgentToken, readAgentToken, saveAgentToken } from '../lib/agent-session';
import { agentApi, sessionAgentToken } from '../lib/api';
import { useAuth } from '../lib/auth';
import { useProject } from '../lib/project-context';
import type { AgentInfo } from '../lib/types';
import { useAsync } from '../lib/use-async';

export const InboxPage = () => {
  const { project } = useProject();
  const auth = useAuth();
  // A person signed in with their own account answers as themself; the admin token picks an agent.
  const [token, setToken] = useState(() => (auth.kind === 'user' ? sessionAgentToken(project.id) : readAgentToken(project.id)));
  const me = useAsync((signal) => (token ? agentApi<AgentInfo>(token, '/me', { signal }) : Promise.resolve(null)), [token]);
  const stop = () => {
    clearAgentToken(project.id);
    setToken(null);
  };
  const working = Boolean(token && me.data);
  return (
    <>
      <PageHeader
        title="Inbox"
        description={
          working ? undefined : 'Conversations handed to a person: claim them, answer as an agent, release them to the assistant.'
        }
      />
      {token && me.loading && !me.data ? <Loading /> : null}
      {token && me.error ? <ErrorNotice error={me.error} /> : null}
      {token && me.data ? (
        <InboxWorkspace token={token} me={me.data} onStop={stop} />
      ) : (
        <AgentPicker
          onToken={(t) => {
            saveAgentToken(project.id, t);
            setToken(t);
          }}
        />
      )}
    </>
  );
};
