import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { SelectField, TextField } from '../components/fields';
import { ListTable } from '../components/list-table';
import { MessageList, textOf } from '../components/message-list';
import { Button, Card, Empty, ErrorNotice, Field, formatDate, LoadStatus, PageHeader, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import { download } from '../lib/download';
import { useProject } from '../lib/project-context';
import type { AdminConversation, PagedList } from '../lib/types';
import { useAsync } from '../lib/use-async';

const PAGE = 20;

interface Filters {
  status: '' | 'open' | 'closed';
  humanHandled: '' | 'true' | 'false';
  visitorId: string;
  from: string;
  to: string;
}

const STATUSES = [
  ['', 'Any'],
  ['open', 'Open'],
  ['closed', 'Closed'],
] as const;
const HANDLERS = [
  ['', 'Anyone'],
  ['false', 'Assistant'],
  ['true', 'Human agent'],
] as const;

/** The filters as query parameters; dates (yyyy-mm-dd) as the start of that day, `to` inclusive. */
const filterParams = (f: Filters): URLSearchParams => {
  const params = new URLSearchParams();
  if (f.status) params.set('status', f.status);
  if (f.humanHandled) params.set('humanHandled', f.humanHandled);
  if (f.visitorId.trim()) params.set('visitorId', f.visitorId.trim());
  if (f.from) params.set('from', new Date(`${f.from}T00:00:00`).toISOString());
  if (f.to) params.set('to', new Date(new Date(`${f.to}T00:00:00`).getTime() + 86_400_000).toISOString());
  return params;
};

export const ConversationsPage = () => {
  const { project } = useProject();
  const [filters, setFilters] = useState<Filters>({ status: '', humanHandled: '', visitorId: '', from: '', to: '' });
  const [offset, setOffset] = useState(0);
  const params = filterParams(filters);
  const list = useAsync(
    (signal) =>
      api<PagedList<AdminConversation>>(`/projects/${project.id}/conversations?${params}&limit=${PAGE}&offset=${offset}`, { signal }),
    [project.id, params.toString(), offset],
  );
  const exporter = useSubmit(async (format: 'ndjson' | 'csv') => {
    await download(`/projects/${project.id}/conversations/export?${params}&format=${format}`, `conversations.${format}`);
  });
  const setFilter = <K extends keyof Filters>(key: K, value: Filters[K]) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setOffset(0);
  };

  return (
    <>
      <PageHeader
        title="Conversations"
        description="Every visitor conversation of this project, latest first."
        actions={
          <>
            <Button variant="secondary" busy={exporter.busy} onClick={() => void exporter.run('ndjson')}>
              Export NDJSON
            </Button>
            <Button variant="secondary" busy={exporter.busy} onClick={() => void exporter.run('csv')}>
              Export CSV
            </Button>
          </>
        }
      />
      <ErrorNotice error={exporter.error} />
      <Card>
        <div class="filters" role="search" aria-label="Filter conversations">
          <SelectField label="Status" name="status" options={STATUSES} value={filters.status} onValue={(v) => setFilter('status', v)} />
          <SelectField
            label="Handled by"
            name="humanHandled"
            options={HANDLERS}
            value={filters.humanHandled}
            onValue={(v) => setFilter('humanHandled', v)}
          />
          <TextField label="From" type="date" name="from" value={filters.from} onValue={(v) => setFilter('from', v)} />
          <TextField label="To" type="date" name="to" value={filters.to} onValue={(v) => setFilter('to', v)} />
          <Field label="Visitor id">
            <input
              name="visitorId"
              value={filters.visitorId}
              placeholder="uuid"
              onChange={(e) => setFilter('visitorId', e.currentTarget.value)}
            />
          </Field>
        </div>
      </Card>
      <Card>
        <ListTable
          state={list}
          empty={<Empty title="No conversations match">Visitors' conversations appear here as they happen.</Empty>}
          columns={['Conversation', 'Last message', 'Messages', 'Status', 'Last interaction']}
          row={(c) => (
            <tr key={c.id}>
              <td>
                <a href={`/dashboard/projects/${project.id}/conversations/${c.id}`}>{c.title ?? 'Untitled conversation'}</a>
              </td>
              <td class="truncate">{c.lastMessage ? textOf(c.lastMessage) : '—'}</td>
              <td>{c.messageCount}</td>
              <td>
                <span class="badge">{c.status}</span>
                {c.isHumanHandled ? <span class="badge badge-agent">agent</span> : null}
              </td>
              <td>{formatDate(c.lastInteractionAt)}</td>
            </tr>
          )}
          pager={{ limit: PAGE, offset, onChange: setOffset }}
        />
      </Card>
    </>
  );
};

export const ConversationPage = () => {
  const { project } = useProject();
  const { params } = useRoute();
  const conversation = useAsync(
    (signal) => api<AdminConversation>(`/projects/${project.id}/conversations/${params.conversationId}`, { signal }),
    [project.id, params.conversationId],
  );
  const c = conversation.data;
  return (
    <>
      <a href={`/dashboard/projects/${project.id}/conversations`}>← Conversations</a>
      <LoadStatus state={conversation} />
      {c ? (
        <>
          <PageHeader
            title={c.title ?? 'Untitled conversation'}
            description={`Started ${formatDate(c.createdAt)} · visitor ${c.visitorId}`}
          />
          <Card>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                {c.status}
                {c.closeReason ? ` (${c.closeReason})` : ''}
              </dd>
              <dt>Handled by</dt>
              <dd>{c.isHumanHandled ? (c.humanAgent?.name ?? 'a human agent') : 'the assistant'}</dd>
              <dt>Page</dt>
              <dd>{c.pageUrl ?? '—'}</dd>
            </dl>
          </Card>
          <Card title={`Messages (${c.messages?.length ?? 0})`}>
            {c.messages?.length ? <MessageList messages={c.messages} /> : <Empty title="No messages yet" />}
          </Card>
        </>
      ) : null}
    </>
  );
};
