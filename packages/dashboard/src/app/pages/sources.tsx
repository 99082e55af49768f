import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ExternalLink } from '../components/external-link';
import { ACTIONS, ListTable } from '../components/list-table';
import { SourceForm } from '../components/source-form';
import { SourceProgress } from '../components/source-progress';
import { SourceStatusBadge } from '../components/source-status';
import { Button, Card, Dialog, Empty, formatDate, PageHeader } from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import { isCrawling, refreshLabel } from '../lib/sources';
import type { PagedList, Source } from '../lib/types';
import { useAsync } from '../lib/use-async';
import { useInterval } from '../lib/use-interval';

const PAGE = 10;

export const SourcesPage = () => {
  const { project } = useProject();
  const { route } = useLocation();
  const [offset, setOffset] = useState(0);
  const [adding, setAdding] = useState(false);
  const list = useAsync(
    (signal) => api<PagedList<Source>>(`/projects/${project.id}/sources?limit=${PAGE}&offset=${offset}`, { signal }),
    [project.id, offset],
  );
  useInterval(Boolean(list.data?.data.some(isCrawling)), list.reload, 1500);
  const detail = (source: Source) => `/dashboard/projects/${project.id}/sources/${source.id}`;

  return (
    <>
      <PageHeader
        title="Sources"
        description="Websites and sitemaps the assistant learns from. Each page becomes a document cited by its address; sources stay in sync on their schedule."
        actions={<Button onClick={() => setAdding(true)}>Add a source</Button>}
      />
      <Card title="Sources">
        <ListTable
          state={list}
          empty={<Empty title="No sources yet">Add your website: its pages are crawled and indexed.</Empty>}
          columns={['Address', 'Status', 'Pages', 'Refresh', 'Last sync', ACTIONS]}
          row={(source) => (
            <tr key={source.id}>
              <td class="truncate">
                <ExternalLink url={source.url} />
                <div class="muted small">{source.type === 'sitemap' ? 'Sitemap' : 'Website'}</div>
              </td>
              <td>
                <SourceStatusBadge status={source.status} />
              </td>
              <td class="source-cell-progress">
                <SourceProgress source={source} />
              </td>
              <td>{refreshLabel(source.refreshIntervalHours)}</td>
              <td>{formatDate(source.lastSyncAt)}</td>
              <td class="actions">
                <a class="button button-secondary button-small" href={detail(source)} aria-label={`Open ${source.url}`}>
                  Open
                </a>
              </td>
            </tr>
          )}
          pager={{ limit: PAGE, offset, onChange: setOffset }}
        />
      </Card>
      <Dialog open={adding} title="Add a source" onClose={() => setAdding(false)}>
        {adding ? (
          <SourceForm
            submitLabel="Add and crawl"
            onCancel={() => setAdding(false)}
            onSubmit={async (body) => {
              const created = await api<Source>(`/projects/${project.id}/sources`, { body });
              setAdding(false);
              route(detail(created));
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
};
