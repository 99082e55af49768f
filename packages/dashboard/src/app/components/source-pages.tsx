import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import type { PagedList, SourcePage, SourcePageStatus } from '../lib/types';
import { useAsync } from '../lib/use-async';
import { ExternalLink } from './external-link';
import { SelectField } from './fields';
import { ListTable } from './list-table';
import { Card, Empty, formatDate } from './ui';

const PAGE = 20;
const STATUSES: SourcePageStatus[] = ['indexed', 'unchanged', 'failed', 'skipped', 'pending'];
const SHOW: ReadonlyArray<readonly [SourcePageStatus | '', string]> = [
  ['', 'All pages'],
  ...STATUSES.map((s) => [s, s[0]!.toUpperCase() + s.slice(1)] as const),
];
const TONE: Record<SourcePageStatus, string> = {
  indexed: 'badge-like',
  unchanged: 'badge-muted',
  failed: 'badge-danger',
  skipped: 'badge-agent',
  pending: 'badge-muted',
};

/** The pages of a source's latest crawl, by outcome; `version` changes reload it (the crawl moved on). */
export const SourcePages = ({ base, version }: { base: string; version: string }) => {
  const [status, setStatus] = useState<SourcePageStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const list = useAsync(
    (signal) => api<PagedList<SourcePage>>(`${base}/pages?limit=${PAGE}&offset=${offset}${status ? `&status=${status}` : ''}`, { signal }),
    [base, status, offset, version],
  );
  return (
    <Card
      title="Pages"
      actions={
        <SelectField
          label="Show"
          name="pageStatus"
          options={SHOW}
          value={status}
          onValue={(next) => {
            setStatus(next);
            setOffset(0);
          }}
        />
      }
    >
      <ListTable
        state={list}
        empty={<Empty title={status ? `No ${status} pages` : 'No pages yet'}>They appear as the crawl finds them.</Empty>}
        columns={['Page', 'Status', 'Error', 'Fetched']}
        row={(p) => (
          <tr key={p.url}>
            <td class="truncate">
              {p.title ? <div>{p.title}</div> : null}
              <span class="small">
                <ExternalLink url={p.url} />
              </span>
            </td>
            <td>
              <span class={`badge ${TONE[p.status]}`}>{p.status}</span>
            </td>
            <td>{p.error ?? ''}</td>
            <td>{formatDate(p.fetchedAt)}</td>
          </tr>
        )}
        pager={{ limit: PAGE, offset, onChange: setOffset }}
      />
    </Card>
  );
};
