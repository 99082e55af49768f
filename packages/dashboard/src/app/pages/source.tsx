import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { ExternalLink } from '../components/external-link';
import { SourceForm } from '../components/source-form';
import { SourcePages } from '../components/source-pages';
import { SourceProgress } from '../components/source-progress';
import { SourceStatusBadge } from '../components/source-status';
import { Button, Card, ConfirmDialog, Dialog, ErrorNotice, formatDate, Loading, PageHeader, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import { isCrawling, refreshLabel } from '../lib/sources';
import type { Source } from '../lib/types';
import { useAsync } from '../lib/use-async';
import { useInterval } from '../lib/use-interval';

/** One source: its crawl's progress (polled while it crawls), its pages, sync, settings, delete. */
export const SourcePage = () => {
  const { project } = useProject();
  const { params } = useRoute();
  const { route } = useLocation();
  const base = `/projects/${project.id}/sources/${params.sourceId}`;
  const state = useAsync((signal) => api<Source>(base, { signal }), [base]);
  const source = state.data;
  useInterval(Boolean(source && isCrawling(source)), state.reload, 1000);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const sync = useSubmit(async () => state.setData(await api<Source>(`${base}/sync`, { method: 'POST' })));
  const back = `/dashboard/projects/${project.id}/sources`;

  if (!source) {
    return (
      <>
        <PageHeader title="Source" />
        {state.loading ? <Loading /> : <ErrorNotice error={state.error} onRetry={state.reload} />}
        <a href={back}>Back to the sources</a>
      </>
    );
  }
  const crawling = isCrawling(source);
  return (
    <>
      <PageHeader
        title="Source"
        description={`${source.type === 'sitemap' ? 'Sitemap' : 'Website'} ${source.url}`}
        actions={
          <>
            <Button onClick={() => void sync.run()} busy={sync.busy} disabled={crawling}>
              {crawling ? 'Crawling…' : 'Sync now'}
            </Button>
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Settings
            </Button>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </>
        }
      />
      <p>
        <a href={back}>← All sources</a>
      </p>
      <ErrorNotice error={sync.error} />
      <Card title="Crawl" actions={<SourceStatusBadge status={source.status} />}>
        <SourceProgress source={source} />
        {source.error ? <ErrorNotice error={new Error(source.error)} /> : null}
        <dl class="facts">
          <dt>Address</dt>
          <dd class="truncate">
            <ExternalLink url={source.url} />
          </dd>
          <dt>Last sync</dt>
          <dd>{formatDate(source.lastSyncAt)}</dd>
          <dt>Next sync</dt>
          <dd>{source.refreshIntervalHours === null ? 'When you sync' : formatDate(source.nextSyncAt)}</dd>
          <dt>Refresh</dt>
          <dd>{refreshLabel(source.refreshIntervalHours)}</dd>
          <dt>Page limit</dt>
          <dd>{source.maxPages}</dd>
          <dt>Only</dt>
          <dd>{source.include.length ? source.include.join(', ') : 'Every path'}</dd>
          <dt>Never</dt>
          <dd>{source.exclude.length ? source.exclude.join(', ') : '—'}</dd>
        </dl>
      </Card>
      <SourcePages
        base={base}
        version={`${source.status}:${source.updatedAt}:${crawling ? source.pages.found + source.pages.indexed : ''}`}
      />
      <Dialog open={editing} title="Source settings" onClose={() => setEditing(false)}>
        {editing ? (
          <SourceForm
            initial={source}
            submitLabel="Save"
            onCancel={() => setEditing(false)}
            onSubmit={async (body) => {
              state.setData(await api<Source>(base, { method: 'PATCH', body }));
              setEditing(false);
            }}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title="Delete this source?"
        body={<p>{source.url} and every document made from its pages are removed from search.</p>}
        confirmLabel="Delete source"
        onConfirm={async () => {
          await api(base, { method: 'DELETE' });
          route(back);
        }}
        onClose={() => setDeleting(false)}
      />
    </>
  );
};
