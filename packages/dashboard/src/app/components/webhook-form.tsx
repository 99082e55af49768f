import { FEED_TYPES } from '@palaver/contracts';
import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import type { WebhookRecord } from '../lib/types';
import { TextField } from './fields';
import { Form, FormActions, useSubmit } from './ui';

export interface WebhookFormValues {
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
}

/** Registers an endpoint (POST, answered with its secret) or changes one (PATCH). */
export const WebhookForm = ({
  projectId,
  editing,
  onSaved,
  onCancel,
}: {
  projectId: string;
  editing: WebhookRecord | null;
  onSaved: (saved: WebhookRecord & { secret?: string }) => void;
  onCancel: () => void;
}) => {
  const [url, setUrl] = useState(editing?.url ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [all, setAll] = useState(editing ? editing.events.includes('*') : true);
  const [events, setEvents] = useState<string[]>(editing?.events.filter((e) => e !== '*') ?? []);
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const toggle = (type: string) => setEvents((now) => (now.includes(type) ? now.filter((e) => e !== type) : [...now, type]));

  const save = useSubmit(async () => {
    const body = {
      url: url.trim(),
      description: description.trim() || (editing ? null : undefined),
      events: all ? ['*'] : events,
      enabled,
    };
    const saved = editing
      ? await api<WebhookRecord>(`/projects/${projectId}/webhooks/${editing.id}`, { method: 'PATCH', body })
      : await api<WebhookRecord & { secret: string }>(`/projects/${projectId}/webhooks`, { body });
    onSaved(saved);
  });

  return (
    <Form class="form-grid" onSubmit={save.run}>
      <TextField
        label="Endpoint URL"
        hint="Deliveries are POSTed here, signed (Standard Webhooks). Redirects are not followed."
        name="url"
        type="url"
        required
        maxLength={2048}
        value={url}
        onValue={setUrl}
        placeholder="https://crm.example/hooks/palaver"
      />
      <TextField label="Description" name="description" maxLength={500} value={description} onValue={setDescription} />
      <fieldset class="radio-group webhook-events">
        <legend class="field-label">Events</legend>
        <label class="webhook-events-all">
          <input type="checkbox" name="allEvents" checked={all} onChange={() => setAll(!all)} /> All events, those added later too
        </label>
        {all
          ? null
          : FEED_TYPES.map((type) => (
              <label key={type}>
                <input type="checkbox" name="events" value={type} checked={events.includes(type)} onChange={() => toggle(type)} />{' '}
                <code>{type}</code>
              </label>
            ))}
      </fieldset>
      <label>
        <input type="checkbox" name="enabled" checked={enabled} onChange={() => setEnabled(!enabled)} /> Enabled
      </label>
      <FormActions
        submit={save}
        label={editing ? 'Save' : 'Add endpoint'}
        onCancel={onCancel}
        disabled={!url.trim() || (!all && events.length === 0)}
      />
    </Form>
  );
};
