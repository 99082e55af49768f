import { useState } from 'preact/hooks';
import { ApiError, agentApi, api } from '../../lib/api';
import { useProject } from '../../lib/project-context';
import type { AgentInfo, AgentRecord, CreatedAgent } from '../../lib/types';
import { useAsync } from '../../lib/use-async';
import { Button, Card, CopyButton, DeleteDialog, Empty, Field, FormActions, formatDate, ListStatus, Notice, useSubmit } from '../ui';

/** The project's agents: create one (its token is shown once and can be used here at once), list, revoke. */
export const AgentPicker = ({ onToken }: { onToken: (token: string) => void }) => {
  const { project } = useProject();
  const agents = useAsync((signal) => api<{ data: AgentRecord[] }>(`/projects/${project.id}/agents`, { signal }), [project.id]);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [token, setToken] = useState('');
  const [created, setCreated] = useState<CreatedAgent | null>(null);
  const [revoking, setRevoking] = useState<AgentRecord | null>(null);
  const create = useSubmit(async () => {
    const agent = await api<CreatedAgent>(`/projects/${project.id}/agents`, {
      body: { name, ...(email.trim() ? { email: email.trim() } : {}) },
    });
    setCreated(agent);
    setName('');
    setEmail('');
    agents.reload();
  });
  const use = useSubmit(async (candidate: string) => {
    const me = await agentApi<AgentInfo>(candidate, '/me');
    if (me?.projectId !== project.id) throw new ApiError(403, 'FORBIDDEN', 'This token belongs to an agent of another project.');
    onToken(candidate);
  });

  return (
    <>
      {created ? (
        <Notice tone="warning">
          <div class="created-key">
            <strong>Agent “{created.name}” created. Copy the token now: it is shown only once.</strong>
            <div class="key-row">
              <code class="key-value" data-testid="created-agent-token">
                {created.token}
              </code>
              <CopyButton text={created.token} label="Copy token" />
              <Button class="button-small" busy={use.busy} onClick={() => void use.run(created.token)}>
                Work as {created.name}
              </Button>
            </div>
          </div>
        </Notice>
      ) : null}
      <div class="form-grid form-grid-2">
        <Card title="Work as an agent">
          <form
            class="form-grid"
            onSubmit={(event) => {
              event.preventDefault();
              void use.run(token.trim());
            }}
          >
            <Field label="Agent token" hint="The ak_… token given when the agent was created; kept for this tab only">
              <input type="password" name="agentToken" autoComplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
            </Field>
            <FormActions submit={use} label="Open the inbox" disabled={!token.trim()} />
          </form>
        </Card>
        <Card title="New agent">
          <form
            class="form-grid"
            onSubmit={(event) => {
              event.preventDefault();
              void create.run();
            }}
          >
            <Field label="Agent name">
              <input name="agentName" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </Field>
            <Field label="Email (optional)">
              <input name="agentEmail" type="email" maxLength={320} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <FormActions submit={create} label="Create agent" disabled={!name.trim()} />
          </form>
        </Card>
      </div>
      <Card title="Agents of this project">
        <ListStatus
          state={agents}
          empty={<Empty title="No agents yet">Create one to answer the conversations visitors hand over.</Empty>}
        />
        <ul class="item-list">
          {agents.data?.data.map((agent) => (
            <li key={agent.id} class="item">
              <div class="item-main">
                <p class="item-title">{agent.name}</p>
                <p class="muted small">
                  {agent.email ?? 'no email'} · token …{agent.hint} ·{' '}
                  {agent.revokedAt ? `revoked ${formatDate(agent.revokedAt)}` : `since ${formatDate(agent.createdAt)}`}
                </p>
              </div>
              {agent.revokedAt ? null : (
                <div class="item-actions">
                  <Button
                    variant="danger"
                    class="button-small"
                    onClick={() => setRevoking(agent)}
                    aria-label={`Revoke agent ${agent.name}`}
                  >
                    Revoke
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </Card>
      <DeleteDialog
        item={revoking}
        title="Revoke this agent?"
        body={<p>{revoking?.name}'s token stops working at once. The conversations they hold stay assigned until released.</p>}
        confirmLabel="Revoke agent"
        path={(item) => `/projects/${project.id}/agents/${item.id}`}
        onDeleted={agents.reload}
        onClose={() => setRevoking(null)}
      />
    </>
  );
};
