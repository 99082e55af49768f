import { useState } from 'preact/hooks';
import { CreatedSecretNotice } from '../components/created-secret';
import { SelectField, TextAreaField, TextField, useFields } from '../components/fields';
import { ACTIONS, ListTable } from '../components/list-table';
import { Button, Card, CopyButton, DeleteDialog, Empty, Form, FormActions, formatDate, PageHeader, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { AssistantRecord, CreatedKey, KeyRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';

const originsOf = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);

/**
 * A publishable key whole (it is public: every page with the widget shows it), a private key
 * by its last characters. A publishable key made before keys were kept has only its hint.
 */
const KeyValue = ({ record }: { record: KeyRecord }) => {
  const prefix = record.type === 'publishable' ? 'pk_' : 'sk_';
  if (record.type === 'publishable' && record.key) {
    return (
      <span class="key-cell">
        <code class="key-full">{record.key}</code>
        {record.revokedAt ? null : <CopyButton text={record.key} label="Copy" ariaLabel={`Copy the key ${record.name}`} />}
      </span>
    );
  }
  return (
    <span class="key-cell">
      <code>
        {prefix}…{record.hint}
      </code>
      {record.type === 'publishable' && !record.revokedAt ? (
        <span class="field-hint">Created before keys were kept whole: create a new key to get a copyable snippet.</span>
      ) : null}
    </span>
  );
};

export const KeysPage = () => {
  const { project } = useProject();
  const keys = useAsync((signal) => api<{ data: KeyRecord[] }>(`/projects/${project.id}/keys`, { signal }), [project.id]);
  const assistants = useAsync((signal) => api<{ data: AssistantRecord[] }>(`/projects/${project.id}/assistants`, { signal }), [project.id]);
  const [type, setType] = useState<'publishable' | 'private'>('publishable');
  const { values, field, reset } = useFields({ keyName: '', assistantId: project.defaultAssistantId ?? '', allowedOrigins: '' });
  const { keyName: name, assistantId } = values;
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<KeyRecord | null>(null);

  const create = useSubmit(async () => {
    const body =
      type === 'publishable'
        ? { type, name, assistantId: assistantId || project.defaultAssistantId, allowedOrigins: originsOf(values.allowedOrigins) }
        : { type, name };
    const key = await api<CreatedKey>(`/projects/${project.id}/keys`, { body });
    setCreated(key);
    reset(['keyName', 'allowedOrigins']);
    keys.reload();
  });
  const assistantName = (id: string | null) => assistants.data?.data.find((a) => a.id === id)?.name ?? '—';

  return (
    <>
      <PageHeader
        title="Keys"
        description="Publishable keys go in web pages (limit them to your sites' origins); private keys stay on your servers."
      />
      {created ? (
        <CreatedSecretNotice
          message={
            created.type === 'private'
              ? `Copy the new private key “${created.name}” now: it is shown only once.`
              : `The new publishable key “${created.name}”: it is public, listed below and in the widget’s embed snippet.`
          }
          value={created.key}
          testId="created-key"
          copyLabel="Copy key"
          onDone={() => setCreated(null)}
        />
      ) : null}
      <Card title="New key">
        <Form class="form-grid" onSubmit={create.run}>
          <fieldset class="radio-group">
            <legend class="field-label">Type</legend>
            <label>
              <input
                type="radio"
                name="type"
                value="publishable"
                checked={type === 'publishable'}
                onChange={() => setType('publishable')}
              />{' '}
              Publishable (browser, widget)
            </label>
            <label>
              <input type="radio" name="type" value="private" checked={type === 'private'} onChange={() => setType('private')} /> Private
              (server to server)
            </label>
          </fieldset>
          <TextField label="Name" required maxLength={200} placeholder="Website widget" {...field('keyName')} />
          {type === 'publishable' ? (
            <>
              <SelectField
                label="Assistant"
                options={(assistants.data?.data ?? []).map(
                  (a) => [a.id, `${a.name}${a.id === project.defaultAssistantId ? ' (default)' : ''}`] as const,
                )}
                {...field('assistantId')}
              />
              <TextAreaField
                label="Allowed origins"
                hint="One per line, such as https://shop.example. Empty: any origin (fine for tests, not for production)."
                rows={3}
                placeholder="https://shop.example"
                {...field('allowedOrigins')}
              />
            </>
          ) : null}
          <FormActions submit={create} label="Create key" disabled={!name.trim()} />
        </Form>
      </Card>
      <Card title="Keys of this project">
        <ListTable
          state={keys}
          empty={<Empty title="No keys yet">Create a publishable key to embed the widget.</Empty>}
          columns={['Name', 'Type', 'Key', 'Assistant', 'Allowed origins', 'Created', ACTIONS]}
          row={(key) => (
            <tr key={key.id} class={key.revokedAt ? 'revoked' : ''}>
              <td>{key.name}</td>
              <td>
                <span class="badge">{key.type}</span>
              </td>
              <td>
                <KeyValue record={key} />
              </td>
              <td>{key.type === 'publishable' ? assistantName(key.assistantId) : '—'}</td>
              <td>{key.type === 'private' ? '—' : key.allowedOrigins.length ? key.allowedOrigins.join(', ') : 'any'}</td>
              <td>{formatDate(key.createdAt)}</td>
              <td class="actions">
                {key.revokedAt ? (
                  <span class="badge badge-muted">revoked {formatDate(key.revokedAt)}</span>
                ) : (
                  <Button variant="danger" class="button-small" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          )}
        />
      </Card>
      <DeleteDialog
        item={revoking}
        title="Revoke this key?"
        body={
          <p>
            “{revoking?.name}” (…{revoking?.hint}) and every visitor session made with it stop working at once. This cannot be undone.
          </p>
        }
        confirmLabel="Revoke key"
        path={(item) => `/projects/${project.id}/keys/${item.id}`}
        onDeleted={keys.reload}
        onClose={() => setRevoking(null)}
      />
    </>
  );
};
