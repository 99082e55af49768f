import { useState } from 'preact/hooks';
import { TextAreaField, TextField } from '../components/fields';
import { Button, Card, Empty, ErrorNotice, Form, FormActions, ListStatus, Notice, PageHeader, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { AssistantRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';

/** An assistant's own model, or empty for the server's. */
const ModelField = ({ value, onValue }: { value: string; onValue: (model: string) => void }) => (
  <TextField label="Model" hint="Empty: the server's OPENAI_MODEL" maxLength={200} value={value} onValue={onValue} placeholder="default" />
);

const AssistantEditor = ({
  assistant,
  isDefault,
  onSaved,
}: {
  assistant: AssistantRecord;
  isDefault: boolean;
  onSaved: (a: AssistantRecord) => void;
}) => {
  const { project } = useProject();
  const [name, setName] = useState(assistant.name);
  const [instructions, setInstructions] = useState(assistant.instructions);
  const [model, setModel] = useState(assistant.model ?? '');
  const [saved, setSaved] = useState(false);
  const save = useSubmit(async () => {
    setSaved(false);
    const updated = await api<AssistantRecord>(`/projects/${project.id}/assistants/${assistant.id}`, {
      method: 'PATCH',
      body: { name, instructions, model: model.trim() || null },
    });
    onSaved(updated);
    setSaved(true);
  });
  return (
    <Card title={`${assistant.name}${isDefault ? ' (default)' : ''}`}>
      <Form class="form-grid" onSubmit={save.run}>
        <div class="form-grid form-grid-2">
          <TextField label="Name" required maxLength={200} value={name} onValue={setName} />
          <ModelField value={model} onValue={setModel} />
        </div>
        <TextAreaField label="Instructions" rows={5} maxLength={20000} value={instructions} onValue={setInstructions} />
        <ErrorNotice error={save.error} />
        {saved && !save.error ? <Notice tone="success">Saved.</Notice> : null}
        <div>
          <Button type="submit" busy={save.busy} disabled={!name.trim()}>
            Save assistant
          </Button>
        </div>
      </Form>
    </Card>
  );
};

export const AssistantsPage = () => {
  const { project } = useProject();
  const assistants = useAsync((signal) => api<{ data: AssistantRecord[] }>(`/projects/${project.id}/assistants`, { signal }), [project.id]);
  const [name, setName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [model, setModel] = useState('');
  const create = useSubmit(async () => {
    await api(`/projects/${project.id}/assistants`, {
      body: { name, ...(instructions.trim() ? { instructions } : {}), ...(model.trim() ? { model: model.trim() } : {}) },
    });
    setName('');
    setInstructions('');
    setModel('');
    assistants.reload();
  });
  const replace = (updated: AssistantRecord) =>
    assistants.setData({ data: (assistants.data?.data ?? []).map((a) => (a.id === updated.id ? updated : a)) });

  return (
    <>
      <PageHeader
        title="Assistants"
        description="Each publishable key answers with one assistant: its instructions and, optionally, its own model."
      />
      <ListStatus state={assistants} empty={<Empty title="No assistants" />} />
      {assistants.data?.data.map((assistant) => (
        <AssistantEditor
          key={assistant.id}
          assistant={assistant}
          isDefault={assistant.id === project.defaultAssistantId}
          onSaved={replace}
        />
      ))}
      <Card title="New assistant">
        <Form class="form-grid" onSubmit={create.run}>
          <div class="form-grid form-grid-2">
            <TextField label="Name" name="assistantName" required maxLength={200} value={name} onValue={setName} />
            <ModelField value={model} onValue={setModel} />
          </div>
          <TextAreaField
            label="Instructions"
            hint="Empty: neutral default instructions"
            rows={4}
            maxLength={20000}
            value={instructions}
            onValue={setInstructions}
          />
          <FormActions submit={create} label="Create assistant" disabled={!name.trim()} />
        </Form>
      </Card>
    </>
  );
};
