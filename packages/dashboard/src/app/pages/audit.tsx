import { useState } from 'preact/hooks';
import { TextField } from '../components/fields';
import { Table } from '../components/list-table';
import { Button, Card, Empty, ErrorNotice, Form, formatDate, ListStatus, PageHeader } from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { AuditEntry, AuditPage } from '../lib/types';
import { useAsync } from '../lib/use-async';

interface Filters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

const queryOf = (filters: Filters, cursor: string | null): string => {
  const search = new URLSearchParams({ limit: '50' });
  if (filters.actor.trim()) search.set('actor', filters.actor.trim());
  if (filters.action.trim()) search.set('action', filters.action.trim());
  if (filters.from) search.set('from', new Date(filters.from).toISOString());
  if (filters.to) search.set('to', new Date(filters.to).toISOString());
  if (cursor) search.set('cursor', cursor);
  return search.toString();
};

const SUFFIX: Partial<Record<AuditEntry['actor']['type'], string>> = { 'api-token': ' (API token)', 'agent-token': ' (agent token)' };

const actorLabel = (entry: AuditEntry): string => {
  if (entry.actor.type === 'admin-token') return 'admin token';
  if (entry.actor.type === 'system') return `${entry.actor.id} (system)`;
  return `${entry.actor.email ?? entry.actor.id}${SUFFIX[entry.actor.type] ?? ''}`;
};

/** Who changed what, newest first, with filters; entries are never edited nor removed. */
export const AuditLogPage = () => {
  const { project } = useProject();
  const empty: Filters = { actor: '', action: '', from: '', to: '' };
  const [draft, setDraft] = useState<Filters>(empty);
  const [filters, setFilters] = useState<Filters>(empty);
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const page = useAsync(
    async (signal) => {
      const first = await api<AuditPage>(`/projects/${project.id}/audit?${queryOf(filters, null)}`, { signal });
      setMore([]);
      setCursor(first.nextCursor);
      return first;
    },
    [project.id, filters],
  );
  const loadMore = async () => {
    if (!cursor) return;
    try {
      const next = await api<AuditPage>(`/projects/${project.id}/audit?${queryOf(filters, cursor)}`);
      setMore((shown) => [...shown, ...next.data]);
      setCursor(next.nextCursor);
    } catch (err) {
      setMoreError(err);
    }
  };
  const entries = [...(page.data?.data ?? []), ...more];
  const set = (field: keyof Filters) => (value: string) => setDraft({ ...draft, [field]: value });

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made through the admin API: who, what and when. Secrets are never recorded."
      />
      <Card title="Filters">
        <Form class="filters filters-wide" onSubmit={async () => setFilters(draft)}>
          <TextField
            label="Action or resource"
            hint="e.g. key.revoked, or key"
            name="action"
            value={draft.action}
            onValue={set('action')}
          />
          <TextField label="Actor id" hint="A user's id, or admin" name="actor" value={draft.actor} onValue={set('actor')} />
          <TextField label="From" type="datetime-local" name="from" value={draft.from} onValue={set('from')} />
          <TextField label="To" type="datetime-local" name="to" value={draft.to} onValue={set('to')} />
          <div>
            <Button type="submit">Apply</Button>
          </div>
        </Form>
      </Card>
      <Card title="Entries">
        <ListStatus state={page} empty={<Empty title="Nothing recorded">No change matches these filters.</Empty>} />
        {entries.length > 0 ? (
          <Table
            testId="audit-table"
            columns={['When', 'Who', 'Action', 'Target', 'Changes']}
            items={entries}
            row={(entry) => (
              <tr key={entry.id}>
                <td>{formatDate(entry.at)}</td>
                <td>{actorLabel(entry)}</td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td>
                  {entry.target.type} <code class="small">{entry.target.id.slice(0, 8)}</code>
                </td>
                <td class="small">{entry.changes ? JSON.stringify(entry.changes) : ''}</td>
              </tr>
            )}
          />
        ) : null}
        <ErrorNotice error={moreError} />
        {cursor ? (
          <Button variant="secondary" onClick={() => void loadMore()}>
            Load more
          </Button>
        ) : null}
      </Card>
    </>
  );
};
