import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import type { PagedList, WebhookDeliveryRecord, WebhookRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';
import { useInterval } from '../lib/use-interval';
import { ACTIONS, ListTable } from './list-table';
import { Button, Card, Empty, ErrorNotice, formatDate } from './ui';

const PAGE = 10;
const TONE = { succeeded: 'badge-like', failed: 'badge-danger', pending: 'badge-muted' } as const;

/** An endpoint's recent deliveries, refreshed while some are pending; a failed one can be resent. */
export const WebhookDeliveries = ({ projectId, webhook }: { projectId: string; webhook: WebhookRecord }) => {
  const [offset, setOffset] = useState(0);
  const [resendError, setResendError] = useState<unknown>(null);
  const base = `/projects/${projectId}/webhooks/${webhook.id}`;
  const list = useAsync(
    (signal) => api<PagedList<WebhookDeliveryRecord>>(`${base}/deliveries?limit=${PAGE}&offset=${offset}`, { signal }),
    [base, offset],
  );
  useInterval(Boolean(list.data?.data.some((d) => d.status === 'pending')), list.reload, 1000);
  const resend = async (delivery: WebhookDeliveryRecord) => {
    setResendError(null);
    try {
      await api(`${base}/deliveries/${delivery.id}/retry`, { method: 'POST' });
      list.reload();
    } catch (err) {
      setResendError(err);
    }
  };

  return (
    <Card
      title={`Recent deliveries to ${webhook.url}`}
      actions={
        <Button variant="secondary" class="button-small" onClick={list.reload}>
          Refresh
        </Button>
      }
    >
      <ErrorNotice error={resendError} />
      <ListTable
        state={list}
        empty={<Empty title="No deliveries yet">Send a test event, or wait for the next event.</Empty>}
        columns={['Event', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Created', ACTIONS]}
        row={(delivery) => (
          <tr key={delivery.id}>
            <td>
              <code>{delivery.type}</code>
            </td>
            <td>
              <span class={`badge ${TONE[delivery.status]}`}>{delivery.status}</span>
            </td>
            <td>{delivery.attempts}</td>
            <td>{delivery.lastResponseStatus ?? delivery.lastError ?? '—'}</td>
            <td>{formatDate(delivery.nextAttemptAt)}</td>
            <td>{formatDate(delivery.createdAt)}</td>
            <td class="actions">
              {webhook.enabled && delivery.status !== 'pending' ? (
                <Button variant="secondary" class="button-small" onClick={() => void resend(delivery)}>
                  Resend
                </Button>
              ) : null}
            </td>
          </tr>
        )}
        pager={{ limit: PAGE, offset, onChange: setOffset }}
      />
    </Card>
  );
};
