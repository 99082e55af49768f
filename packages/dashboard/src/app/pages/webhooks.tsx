import { useState } from 'preact/hooks';
import { CreatedSecretNotice } from '../components/created-secret';
import { ACTIONS, ListTable } from '../components/list-table';
import { Button, Card, ConfirmDialog, Dialog, Empty, ErrorNotice, PageHeader } from '../components/ui';
import { WebhookDeliveries } from '../components/webhook-deliveries';
import { WebhookForm } from '../components/webhook-form';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { WebhookRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';

/** Endpoints that receive the project's events, signed; each one's secret is shown once, when made or rotated. */
export const WebhooksPage = () => {
  const { project } = useProject();
  const base = `/projects/${project.id}/webhooks`;
  const list = useAsync((signal) => api<{ data: WebhookRecord[] }>(base, { signal }), [base]);
  const [form, setForm] = useState<{ editing: WebhookRecord | null } | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<WebhookRecord | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [sent, setSent] = useState(0);
  const selected = list.data?.data.find((w) => w.id === selectedId) ?? list.data?.data[0] ?? null;

  const act = async (action: () => Promise<void>) => {
    setActionError(null);
    try {
      await action();
    } catch (err) {
      setActionError(err);
    }
  };
  const rotate = (webhook: WebhookRecord) =>
    act(async () => {
      const rotated = await api<WebhookRecord & { secret: string }>(`${base}/${webhook.id}/rotate-secret`, { method: 'POST' });
      setSecret({ url: rotated.url, secret: rotated.secret });
    });
  const sendTest = (webhook: WebhookRecord) =>
    act(async () => {
      await api(`${base}/${webhook.id}/test`, { method: 'POST' });
      setSelectedId(webhook.id);
      setSent((n) => n + 1);
    });

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Your servers get the project's events as they happen (conversations, messages, replies, feedback, handoffs), signed with the endpoint's secret; failed deliveries are retried for about a day."
        actions={<Button onClick={() => setForm({ editing: null })}>Add an endpoint</Button>}
      />
      {secret ? (
        <CreatedSecretNotice
          message={`Copy the signing secret of ${secret.url} now: it is shown only once.`}
          value={secret.secret}
          testId="webhook-secret"
          copyLabel="Copy secret"
          onDone={() => setSecret(null)}
        />
      ) : null}
      <ErrorNotice error={actionError} />
      <Card title="Endpoints">
        <ListTable
          state={list}
          empty={<Empty title="No endpoints yet">Add one to push events to a CRM, a help desk or a warehouse.</Empty>}
          columns={['URL', 'Events', 'Status', ACTIONS]}
          row={(webhook) => (
            <tr key={webhook.id} aria-selected={webhook.id === selected?.id}>
              <td>
                <code>{webhook.url}</code>
                {webhook.description ? <div class="muted">{webhook.description}</div> : null}
              </td>
              <td>{webhook.events.includes('*') ? 'all' : webhook.events.join(', ')}</td>
              <td>
                {webhook.enabled ? (
                  <span class="badge badge-like">enabled</span>
                ) : (
                  <span class="badge badge-danger" title={webhook.disabledReason ?? undefined}>
                    disabled
                  </span>
                )}
                {webhook.disabledReason ? <div class="field-hint">{webhook.disabledReason}</div> : null}
              </td>
              <td class="actions">
                <Button variant="secondary" class="button-small" onClick={() => setSelectedId(webhook.id)}>
                  Deliveries
                </Button>
                <Button variant="secondary" class="button-small" onClick={() => void sendTest(webhook)}>
                  Send test event
                </Button>
                <Button variant="secondary" class="button-small" onClick={() => setForm({ editing: webhook })}>
                  Edit
                </Button>
                <Button variant="secondary" class="button-small" onClick={() => void rotate(webhook)}>
                  Rotate secret
                </Button>
                <Button variant="danger" class="button-small" onClick={() => setDeleting(webhook)} aria-label={`Delete ${webhook.url}`}>
                  Delete
                </Button>
              </td>
            </tr>
          )}
        />
      </Card>
      {selected ? <WebhookDeliveries key={`${selected.id}-${sent}`} projectId={project.id} webhook={selected} /> : null}
      <Dialog open={form !== null} title={form?.editing ? 'Edit the endpoint' : 'Add an endpoint'} onClose={() => setForm(null)}>
        {form ? (
          <WebhookForm
            projectId={project.id}
            editing={form.editing}
            onCancel={() => setForm(null)}
            onSaved={(saved) => {
              setForm(null);
              if (saved.secret) setSecret({ url: saved.url, secret: saved.secret });
              setSelectedId(saved.id);
              list.reload();
            }}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this endpoint?"
        body={<p>{deleting?.url} stops receiving events at once, and its deliveries are forgotten.</p>}
        confirmLabel="Delete endpoint"
        onConfirm={async () => {
          await api(`${base}/${deleting!.id}`, { method: 'DELETE' });
          list.reload();
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
};
