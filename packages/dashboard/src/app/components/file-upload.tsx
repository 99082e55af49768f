import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import type { DocumentRecord } from '../lib/types';
import { TextField, useFields } from './fields';
import { Card, Field, Form, FormActions, Notice, useSubmit } from './ui';

const OFFICE_FILE = /\.(pdf|docx)$/i;
const MB = 1024 * 1024;
/** The server's limit (UPLOAD_MAX_BYTES in the contracts; not imported, which would bundle their schemas). */
const UPLOAD_MAX_BYTES = 8 * MB;

/** A PDF or DOCX file sent whole to the server, which extracts its text into one document. */
export const FileUpload = ({ projectId, onUploaded }: { projectId: string; onUploaded: () => void }) => {
  const [file, setFile] = useState<File | null>(null);
  const { values, field, reset } = useFields({ officeTitle: '', officeUrl: '' });
  const [added, setAdded] = useState<DocumentRecord | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const upload = useSubmit(async () => {
    setAdded(null);
    if (!file) throw new Error('Choose a PDF or DOCX file first.');
    // Checked here too so a wrong or huge file is refused before it is sent.
    if (!OFFICE_FILE.test(file.name)) throw new Error(`“${file.name}” is not a PDF or DOCX file.`);
    if (file.size > UPLOAD_MAX_BYTES)
      throw new Error(`“${file.name}” is ${(file.size / MB).toFixed(1)} MB; the limit is ${UPLOAD_MAX_BYTES / MB} MB.`);
    const form = new FormData();
    const [title, url] = [values.officeTitle.trim(), values.officeUrl.trim()];
    if (title) form.append('title', title);
    if (url) form.append('url', url);
    form.append('file', file, file.name);
    const document = await api<DocumentRecord>(`/projects/${projectId}/documents/upload`, { form });
    setAdded(document);
    setFile(null);
    reset();
    setInputKey((k) => k + 1);
    onUploaded();
  });
  return (
    <Card title="Upload a PDF or Word file">
      <p class="muted">Its text becomes one document. At most {UPLOAD_MAX_BYTES / MB} MB.</p>
      <Form class="form-grid" onSubmit={upload.run}>
        <Field label="PDF or DOCX file">
          <input
            key={inputKey}
            type="file"
            name="officeFile"
            accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              upload.setError(null);
            }}
          />
        </Field>
        <div class="form-grid form-grid-2">
          <TextField label="Title" hint="Empty: the file's own title or first heading" maxLength={500} {...field('officeTitle')} />
          <TextField
            label="URL"
            hint="Cited as the source; empty: the file name"
            type="url"
            placeholder="https://shop.example/manual.pdf"
            {...field('officeUrl')}
          />
        </div>
        {added ? (
          <Notice tone="success">
            Added “{added.title}” ({added.chunkCount} chunk{added.chunkCount === 1 ? '' : 's'}).
          </Notice>
        ) : null}
        <FormActions submit={upload} label="Upload file" disabled={!file} />
      </Form>
    </Card>
  );
};
