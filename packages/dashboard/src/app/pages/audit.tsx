import { useState } from 'preact/hooks';
import { Button, Card, Empty, ErrorNotice, Field, formatDate, ListStatus, PageHeader } from '../components/ui';
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
  const set = (field: keyof Filters) => (e: Event) => setDraft({ ...draft, [field]: (e.currentTarget as HTMLInputElement).value });

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made through the admin API: who, what and when. Secrets are never recorded."
      />
      <Card title="Filters">
        <form
          class="filters filters-wide"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters(draft);
          }}
        >
          <Field label="Action or resource" hint="e.g. key.revoked, or key">
            <input name="action" value={draft.action} onInput={set('action')} />
          </Field>
          <Field label="Actor id" hint="A user's id, or admin">
            <input name="actor" value={draft.actor} onInput={set('actor')} />
          </Field>
          <Field label="From">
            <input type="datetime-local" name="from" value={draft.from} onInput={set('from')} />
          </Field>
          <Field label="To">
            <input type="datetime-local" name="to" value={draft.to} onInput={set('to')} />
          </Field>
          <div>
            <Button type="submit">Apply</Button>
          </div>
        </form>
      </Card>
      <Card title="Entries">
        <ListStatus state={page} empty={<Empty title="Nothing recorded">No change matches these filters.</Empty>} />
        {entries.length > 0 ? (
          <div class="table-wrap">
            <table data-testid="audit-table">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>Target</th>
                  <th>Changes</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
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
                ))}
              </tbody>
            </table>
          </div>
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
