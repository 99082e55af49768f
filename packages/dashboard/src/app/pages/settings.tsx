import { useState } from 'preact/hooks';
import { DeleteProject } from '../components/delete-project';
import { TextField } from '../components/fields';
import { IdentitySecret } from '../components/identity-secret';
import { type ProjectDraft, ProjectFields } from '../components/project-fields';
import { ReplySettings, replySettingsBody, replySettingsOf } from '../components/reply-settings';
import { SaveFooter } from '../components/save-footer';
import { Button, Card, Form, PageHeader, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { ProjectRecord } from '../lib/types';

/** '' (unlimited) or a whole number of at least 1. */
const limitValue = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** A message limit as typed: see `limitValue`. */
const LimitField = (props: { label: string; name: string; value: string; onValue: (text: string) => void }) => (
  <TextField {...props} hint="Empty: unlimited" type="number" min={1} step={1} />
);

export const SettingsPage = () => {
  const { project, setProject } = useProject();
  const [draft, setDraft] = useState<ProjectDraft>({ name: project.name, plan: project.plan, description: project.description });
  const [perMinute, setPerMinute] = useState(project.limits.messagesPerMinute?.toString() ?? '');
  const [monthly, setMonthly] = useState(project.limits.monthlyMessages?.toString() ?? '');
  const [prompts, setPrompts] = useState(project.quickPrompts.map(({ title, prompt }) => ({ title, prompt })));
  const [replies, setReplies] = useState(() => replySettingsOf(project));
  const [saved, setSaved] = useState(false);

  const save = useSubmit(async () => {
    setSaved(false);
    const updated = await api<ProjectRecord>(`/projects/${project.id}`, {
      method: 'PATCH',
      body: {
        ...draft,
        limits: { messagesPerMinute: limitValue(perMinute), monthlyMessages: limitValue(monthly) },
        quickPrompts: prompts.filter((p) => p.title.trim() || p.prompt.trim()),
        ...replySettingsBody(replies),
      },
    });
    setProject(updated);
    setSaved(true);
  });

  const setPrompt = (index: number, field: 'title' | 'prompt', value: string) =>
    setPrompts((list) => list.map((p, i) => (i === index ? { ...p, [field]: value } : p)));

  return (
    <>
      <PageHeader title="Settings" description={`Project id ${project.id}`} />
      <Form onSubmit={save.run}>
        <Card title="Project">
          <div class="form-grid">
            <ProjectFields value={draft} onChange={setDraft} descriptionRows={3} />
          </div>
        </Card>
        <Card title="Limits">
          <div class="form-grid form-grid-2">
            <LimitField label="Messages per minute" name="messagesPerMinute" value={perMinute} onValue={setPerMinute} />
            <LimitField label="Messages per month" name="monthlyMessages" value={monthly} onValue={setMonthly} />
          </div>
        </Card>
        <Card
          title="Quick prompts"
          actions={
            <Button
              variant="secondary"
              class="button-small"
              disabled={prompts.length >= 20}
              onClick={() => setPrompts((list) => [...list, { title: '', prompt: '' }])}
            >
              Add a prompt
            </Button>
          }
        >
          {prompts.length === 0 ? <p class="muted">No quick prompts: the widget shows none. Add up to 20.</p> : null}
          <ol class="prompt-list">
            {prompts.map((p, index) => (
              <li key={index} class="prompt-row">
                <TextField label={`Title ${index + 1}`} maxLength={200} value={p.title} onValue={(v) => setPrompt(index, 'title', v)} />
                <TextField label={`Prompt ${index + 1}`} maxLength={2000} value={p.prompt} onValue={(v) => setPrompt(index, 'prompt', v)} />
                <Button
                  variant="ghost"
                  aria-label={`Remove prompt ${index + 1}`}
                  onClick={() => setPrompts((list) => list.filter((_, i) => i !== index))}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ol>
        </Card>
        <ReplySettings value={replies} onChange={setReplies} />
        <SaveFooter submit={save} saved={saved} savedText="Saved." label="Save settings" />
      </Form>
      <IdentitySecret />
      <DeleteProject />
    </>
  );
};
