import { useEffect, useRef, useState } from 'preact/hooks';
import { MessageList, textOf } from '../components/message-list';
import {
  Button,
  Card,
  ConfirmDialog,
  CopyButton,
  DeleteDialog,
  Empty,
  ErrorNotice,
  Field,
  FormActions,
  formatDate,
  ListStatus,
  Loading,
  Notice,
  PageHeader,
  useSubmit,
} from '../components/ui';
import { useAgentPresence } from '../lib/agent-presence';
import { clearAgentToken, readAgentToken, saveAgentToken } from '../lib/agent-session';
import { ApiError, agentApi, agentFetch, api, sessionAgentToken } from '../lib/api';
import { useAuth } from '../lib/auth';
import { type FollowState, follow } from '../lib/follow';
import { useProject } from '../lib/project-context';
import type { AgentConversation, AgentEvent, AgentInfo, AgentRecord, CreatedAgent, HeldConversations, Message } from '../lib/types';
import { useAsync } from '../lib/use-async';

/** The project's agents: create one (its token is shown once and can be used here at once), list, revoke. */
const AgentPicker = ({ onToken }: { onToken: (token: string) => void }) => {
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

const ConversationPanel = ({
  token,
  conversation,
  onChanged,
  version,
}: {
  token: string;
  conversation: AgentConversation;
  onChanged: () => void;
  version: number;
}) => {
  const messages = useAsync(
    (signal) => agentApi<{ data: Message[] }>(token, `/conversations/${conversation.id}/messages`, { signal }),
    [conversation.id, version],
  );
  const [reply, setReply] = useState('');
  const send = useSubmit(async () => {
    await agentApi(token, `/conversations/${conversation.id}/messages`, { body: { content: reply } });
    setReply('');
    messages.reload();
    onChanged();
  });
  const [confirmRelease, setConfirmRelease] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  return (
    <Card
      title={conversation.title ?? 'Untitled conversation'}
      actions={
        <div class="row">
          <Button variant="secondary" class="button-small" onClick={() => setConfirmRelease(true)}>
            Release to the assistant
          </Button>
          <Button variant="secondary" class="button-small" onClick={() => setConfirmClose(true)}>
            Close the conversation
          </Button>
        </div>
      }
    >
      <ConfirmDialog
        open={confirmClose}
        title="Close this conversation?"
        body={<p>The conversation ends; the visitor sees it closed.</p>}
        confirmLabel="Close"
        onConfirm={async () => {
          await agentApi(token, `/conversations/${conversation.id}/close`, { body: {} });
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
          await agentApi(token, `/conversations/${conversation.id}/release`, { method: 'POST' });
          onChanged();
        }}
        onClose={() => setConfirmRelease(false)}
      />
      {messages.loading && !messages.data ? <Loading /> : null}
      <ErrorNotice error={messages.error} onRetry={messages.reload} />
      {messages.data ? <MessageList messages={messages.data!.data} /> : null}
      <form
        class="form-grid reply-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send.run();
        }}
      >
        <Field label="Reply">
          <textarea
            name="reply"
            rows={3}
            maxLength={10000}
            value={reply}
            onInput={(e) => setReply(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && reply.trim()) void send.run();
            }}
          />
        </Field>
        <ErrorNotice error={send.error} />
        <div class="row">
          <Button type="submit" busy={send.busy} disabled={!reply.trim() || conversation.status === 'closed'}>
            Send reply
          </Button>
          <span class="muted small">Ctrl+Enter sends</span>
        </div>
      </form>
    </Card>
  );
};

/** The queue and the conversations this agent holds, kept current by the agents' live feed. */
const Inbox = ({ token, me, onStop }: { token: string; me: AgentInfo; onStop: () => void }) => {
  const queue = useAsync((signal) => agentApi<{ data: AgentConversation[] }>(token, '/queue', { signal }), [token]);
  const [mine, setMine] = useState<Map<string, AgentConversation>>(new Map());
  const [selected, setSelected] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<FollowState>('connecting');
  const [error, setError] = useState<unknown>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useAgentPresence(token);

  useEffect(() => {
    const stop = follow(
      async (after, signal) => {
        // Without an event seen yet (the first connection, or a drop before any): what this agent
        // holds now, and the feed from the position read before it, instead of its whole history.
        let from = after;
        if (from === undefined) {
          const held = await agentApi<HeldConversations>(token, '/conversations', { signal });
          if (!held) throw new Error('the API sent no conversations');
          setMine(new Map(held.data.map((conversation) => [conversation.id, conversation])));
          queue.reload();
          from = held.feedCursor;
        }
        return agentFetch(token, `/events?after=${encodeURIComponent(from)}`, { signal });
      },
      {
        onMessage: (data) => {
          const event = JSON.parse(data) as AgentEvent;
          setMine((held) => {
            const next = new Map(held);
            const conversation = event.conversation;
            if (conversation.handoff === 'claimed' && conversation.humanAgent?.id === me.agentId && conversation.status === 'open')
              next.set(conversation.id, conversation);
            else next.delete(conversation.id);
            return next;
          });
          clearTimeout(reloadTimer.current);
          reloadTimer.current = setTimeout(() => {
            queue.reload();
            setVersion((v) => v + 1);
          }, 200);
        },
        onState: (next, err) => {
          setState(next);
          setError(next === 'live' ? null : (err ?? null));
          if (err instanceof ApiError && err.status === 401) onStop();
        },
      },
    );
    return () => {
      stop();
      clearTimeout(reloadTimer.current);
    };
  }, [token, me.agentId]);

  const claim = useSubmit(async () => {
    const claimed = await agentApi<AgentConversation>(token, '/queue/claim', { method: 'POST' });
    if (claimed) {
      setMine((held) => new Map(held).set(claimed.id, claimed));
      setSelected(claimed.id);
    }
    queue.reload();
  });
  const take = useSubmit(async (id: string) => {
    const taken = await agentApi<AgentConversation>(token, `/conversations/${id}/handoff`, { method: 'POST' });
    if (taken) setMine((held) => new Map(held).set(taken.id, taken));
    setSelected(id);
    queue.reload();
  });
  const current = selected ? mine.get(selected) : undefined;
  const waiting = queue.data?.data ?? [];

  return (
    <>
      <Notice>
        <div class="row row-spread">
          <span>
            Working as <strong>{me.name}</strong> ·{' '}
            <span class={`live-dot live-${state}`} aria-live="polite">
              {state}
            </span>
          </span>
          {token.startsWith('session:') ? null : (
            <Button variant="secondary" class="button-small" onClick={onStop}>
              Stop working as {me.name}
            </Button>
          )}
        </div>
      </Notice>
      <ErrorNotice error={error} />
      <div class="inbox-layout">
        <div>
          <Card
            title={`Waiting (${waiting.length})`}
            actions={
              <Button class="button-small" busy={claim.busy} disabled={waiting.length === 0} onClick={() => void claim.run()}>
                Claim next
              </Button>
            }
          >
            <ErrorNotice error={claim.error ?? take.error} />
            {queue.loading && !queue.data ? <Loading /> : null}
            <ErrorNotice error={queue.error} onRetry={queue.reload} />
            {queue.data && waiting.length === 0 ? <Empty title="Nobody is waiting">New requests appear here live.</Empty> : null}
            <ul class="item-list" data-testid="queue">
              {waiting.map((c) => (
                <li key={c.id} class="item">
                  <div class="item-main">
                    <p class="item-title">{c.title ?? 'Untitled conversation'}</p>
                    {c.unansweredMessages.slice(-2).map((m) => (
                      <p key={m.id} class="item-text">
                        “{textOf(m)}”
                      </p>
                    ))}
                    {c.contact ? (
                      <p class="small" data-testid="queue-contact">
                        Left an email: {c.contact.name ? `${c.contact.name} <${c.contact.email}>` : c.contact.email}
                      </p>
                    ) : null}
                    <p class="muted small">waiting since {formatDate(c.handoffRequestedAt)}</p>
                  </div>
                  <div class="item-actions">
                    <Button
                      variant="secondary"
                      class="button-small"
                      onClick={() => void take.run(c.id)}
                      aria-label={`Take “${c.title ?? c.id}”`}
                    >
                      Take
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          </Card>
          <Card title={`Yours (${mine.size})`}>
            {mine.size === 0 ? <Empty title="You hold no conversation" /> : null}
            <ul class="item-list">
              {[...mine.values()].map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    class={`conversation-pick ${c.id === selected ? 'is-selected' : ''}`}
                    aria-pressed={c.id === selected}
                    onClick={() => setSelected(c.id)}
                  >
                    <span class="item-title">{c.title ?? 'Untitled conversation'}</span>
                    <span class="muted small">
                      {c.unansweredMessages.length ? `${c.unansweredMessages.length} unanswered` : 'answered'} ·{' '}
                      {formatDate(c.lastInteractionAt)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </Card>
        </div>
        <div>
          {current ? (
            <ConversationPanel
              key={current.id}
              token={token}
              conversation={current}
              version={version}
              onChanged={() => {
                queue.reload();
                setVersion((v) => v + 1);
              }}
            />
          ) : (
            <Card>
              <Empty title="No conversation open">Claim the next one, or pick one of yours.</Empty>
            </Card>
          )}
        </div>
      </div>
    </>
  );
};

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
  return (
    <>
      <PageHeader
        title="Inbox"
        description="Conversations handed to a person: claim them, answer as an agent, release them to the assistant."
      />
      {token && me.loading && !me.data ? <Loading /> : null}
      {token && me.error ? <ErrorNotice error={me.error} /> : null}
      {token && me.data ? (
        <Inbox token={token} me={me.data} onStop={stop} />
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
