import { useState } from 'preact/hooks';
import { EditDeleteButtons } from '../components/edit-delete-buttons';
import { ExternalLink } from '../components/external-link';
import { TextAreaField, TextField } from '../components/fields';
import { FileUpload } from '../components/file-upload';
import { ACTIONS, ListTable } from '../components/list-table';
import {
  Button,
  Card,
  DeleteDialog,
  Dialog,
  Empty,
  Field,
  Form,
  FormActions,
  formatDate,
  Notice,
  PageHeader,
  useSubmit,
} from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { DocumentRecord, PagedList } from '../lib/types';
import { type PreparedUpload, prepareUpload, type SourceProblem, sendUpload } from '../lib/upload';
import { useAsync } from '../lib/use-async';

const PAGE = 10;

type DocumentFields = { title: string; url: string; content: string };

const DocumentForm = ({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: DocumentFields;
  submitLabel: string;
  onSubmit: (body: DocumentFields) => Promise<void>;
  onCancel: () => void;
}) => {
  const [fields, setFields] = useState(initial);
  const set = (key: keyof DocumentFields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  const submit = useSubmit(() => onSubmit(fields));
  return (
    <Form class="form-grid" onSubmit={submit.run}>
      <TextField label="Title" name="title" required maxLength={500} value={fields.title} onValue={set('title')} />
      <TextField
        label="URL"
        name="url"
        type="url"
        required
        value={fields.url}
        onValue={set('url')}
        placeholder="https://shop.example/help/returns"
      />
      <TextAreaField label="Content" name="content" required rows={10} value={fields.content} onValue={set('content')} />
      <FormActions submit={submit} label={submitLabel} onCancel={onCancel} />
    </Form>
  );
};

const Problems = ({ title, problems }: { title: string; problems: SourceProblem[] }) =>
  problems.length === 0 ? null : (
    <details class="problems" open>
      <summary>
        {title} ({problems.length})
      </summary>
      <ul>
        {problems.map((p, i) => (
          <li key={i}>
            <code>{p.source}</code>: {p.reason}
          </li>
        ))}
      </ul>
    </details>
  );

const Upload = ({ onUploaded }: { onUploaded: () => void }) => {
  const { project } = useProject();
  const [files, setFiles] = useState<File[]>([]);
  const [baseUrl, setBaseUrl] = useState('');
  const [prepared, setPrepared] = useState<PreparedUpload | null>(null);
  const [done, setDone] = useState(0);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ sent: number; failures: SourceProblem[] } | null>(null);

  const prepare = async (list: File[], base: string) => {
    setResult(null);
    setDone(0);
    setPrepared(list.length ? await prepareUpload(list, base.trim()) : null);
  };
  const send = async () => {
    if (!prepared) return;
    setSending(true);
    const failures = await sendUpload(project.id, prepared.items, setDone);
    setSending(false);
    setResult({ sent: prepared.items.length - failures.length, failures });
    setPrepared(null);
    setFiles([]);
    onUploaded();
  };
  const total = prepared?.items.length ?? 0;

  return (
    <Card title="Upload">
      <p class="muted">
        Markdown, text and HTML files become one document each (title from the first heading); NDJSON files hold one document or Q&A entry
        per line, as for <code>pnpm import-knowledge</code>.
      </p>
      <div class="form-grid form-grid-2">
        <Field label="Files" hint=".md, .markdown, .txt, .html, .ndjson">
          <input
            type="file"
            name="files"
            multiple
            accept=".md,.markdown,.txt,.html,.ndjson,.jsonl"
            onChange={(e) => {
              const list = [...(e.currentTarget.files ?? [])];
              setFiles(list);
              void prepare(list, baseUrl);
            }}
          />
        </Field>
        <TextField
          label="Base URL for files"
          hint="A file guides/setup.md gets <base URL>/guides/setup"
          type="url"
          name="baseUrl"
          value={baseUrl}
          placeholder="https://shop.example/help"
          onValue={setBaseUrl}
          onBlur={() => void prepare(files, baseUrl)}
        />
      </div>
      {prepared ? (
        <div class="upload-summary">
          <p>
            Ready: {prepared.items.filter((i) => i.kind === 'document').length} documents,{' '}
            {prepared.items.filter((i) => i.kind === 'qna').length} Q&A entries.
          </p>
          <Problems title="Left out" problems={prepared.problems} />
        </div>
      ) : null}
      {sending || (prepared && total > 0) ? (
        <div class="progress">
          <progress max={Math.max(total, 1)} value={done} aria-label="Upload progress" />
          <span class="muted small">
            {done} / {total}
          </span>
        </div>
      ) : null}
      {result ? (
        <Notice tone={result.failures.length ? 'warning' : 'success'}>
          Uploaded {result.sent} item{result.sent === 1 ? '' : 's'}
          {result.failures.length ? `, ${result.failures.length} failed` : ''}.
        </Notice>
      ) : null}
      {result ? <Problems title="Failed" problems={result.failures} /> : null}
      <div>
        <Button onClick={() => void send()} busy={sending} disabled={!prepared || total === 0}>
          Upload {total ? `${total} item${total === 1 ? '' : 's'}` : ''}
        </Button>
      </div>
    </Card>
  );
};

export const DocumentsPage = () => {
  const { project } = useProject();
  const [offset, setOffset] = useState(0);
  const list = useAsync(
    (signal) => api<PagedList<DocumentRecord>>(`/projects/${project.id}/documents?limit=${PAGE}&offset=${offset}`, { signal }),
    [project.id, offset],
  );
  const [editing, setEditing] = useState<DocumentRecord | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DocumentRecord | null>(null);
  // The form holds the whole record when editing: only its three fields are sent.
  const save = async ({ title, url, content }: DocumentFields) => {
    const body = { title, url, content };
    if (editing === 'new') await api(`/projects/${project.id}/documents`, { body });
    else if (editing) await api(`/projects/${project.id}/documents/${editing.id}`, { method: 'PATCH', body });
    setEditing(null);
    list.reload();
  };

  return (
    <>
      <PageHeader
        title="Documents"
        description="Pages the assistant searches to ground its answers. Each is split into chunks, searchable as soon as it is saved."
        actions={<Button onClick={() => setEditing('new')}>New document</Button>}
      />
      <Upload onUploaded={list.reload} />
      <FileUpload projectId={project.id} onUploaded={list.reload} />
      <Card title="Documents">
        <ListTable
          state={list}
          empty={<Empty title="No documents yet">Upload your help pages or write one.</Empty>}
          columns={['Title', 'URL', 'Chunks', 'Updated', ACTIONS]}
          row={(doc) => (
            <tr key={doc.id}>
              <td>{doc.title}</td>
              <td class="truncate">
                <ExternalLink url={doc.url} />
              </td>
              <td>{doc.chunkCount}</td>
              <td>{formatDate(doc.updatedAt)}</td>
              <td class="actions">
                <EditDeleteButtons name={doc.title} onEdit={() => setEditing(doc)} onDelete={() => setDeleting(doc)} />
              </td>
            </tr>
          )}
          pager={{ limit: PAGE, offset, onChange: setOffset }}
        />
      </Card>
      <Dialog open={editing !== null} title={editing === 'new' ? 'New document' : 'Edit document'} onClose={() => setEditing(null)}>
        {editing ? (
          <DocumentForm
            initial={editing === 'new' ? { title: '', url: '', content: '' } : editing}
            submitLabel={editing === 'new' ? 'Create document' : 'Save'}
            onCancel={() => setEditing(null)}
            onSubmit={save}
          />
        ) : null}
      </Dialog>
      <DeleteDialog
        item={deleting}
        title="Delete this document?"
        body={<p>“{deleting?.title}” and its chunks are removed from search.</p>}
        confirmLabel="Delete"
        path={(item) => `/projects/${project.id}/documents/${item.id}`}
        onDeleted={list.reload}
        onClose={() => setDeleting(null)}
      />
    </>
  );
};
