import { useState } from 'preact/hooks';
import { EditDeleteButtons } from '../components/edit-delete-buttons';
import { TextAreaField, TextField } from '../components/fields';
import {
  Card,
  DeleteDialog,
  Dialog,
  Empty,
  Form,
  FormActions,
  formatDate,
  ListStatus,
  PageHeader,
  Pager,
  useSubmit,
} from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { PagedList, Qna } from '../lib/types';
import { useAsync } from '../lib/use-async';
import { useDebounced } from '../lib/use-debounced';

const PAGE = 10;

type QnaFields = { question: string; answer: string };

const QnaForm = ({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: QnaFields;
  submitLabel: string;
  onSubmit: (body: QnaFields) => Promise<void>;
  /** In a dialog: closes it without saving. */
  onCancel?: () => void;
}) => {
  const [question, setQuestion] = useState(initial.question);
  const [answer, setAnswer] = useState(initial.answer);
  const submit = useSubmit(async () => {
    await onSubmit({ question, answer });
    if (!initial.question) {
      setQuestion('');
      setAnswer('');
    }
  });
  return (
    <Form class="form-grid" onSubmit={submit.run}>
      <TextField label="Question" name="question" required maxLength={2000} value={question} onValue={setQuestion} />
      <TextAreaField label="Answer" name="answer" required rows={4} maxLength={20000} value={answer} onValue={setAnswer} />
      <FormActions submit={submit} label={submitLabel} onCancel={onCancel} disabled={!question.trim() || !answer.trim()} />
    </Form>
  );
};

export const QnaPage = () => {
  const { project } = useProject();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim());
  const [offset, setOffset] = useState(0);
  const list = useAsync(
    (signal) => {
      const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset), ...(query ? { query } : {}) });
      return api<PagedList<Qna>>(`/projects/${project.id}/qnas?${params}`, { signal });
    },
    [project.id, query, offset],
  );
  const [editing, setEditing] = useState<Qna | null>(null);
  const [deleting, setDeleting] = useState<Qna | null>(null);
  const add = async (body: QnaFields) => {
    await api(`/projects/${project.id}/qnas`, { body });
    list.reload();
  };
  const update = async (body: QnaFields) => {
    await api(`/projects/${project.id}/qnas/${editing?.id}`, { method: 'PATCH', body });
    setEditing(null);
    list.reload();
  };

  return (
    <>
      <PageHeader title="Q&A" description="Questions with their exact answers: the assistant uses them first." />
      <Card title="New Q&A entry">
        <QnaForm initial={{ question: '', answer: '' }} submitLabel="Add Q&A entry" onSubmit={add} />
      </Card>
      <Card title="Entries">
        <TextField
          label="Search"
          type="search"
          name="qnaSearch"
          maxLength={300}
          value={search}
          placeholder="Search questions and answers"
          onValue={(text) => {
            setSearch(text);
            setOffset(0);
          }}
        />
        <ListStatus
          state={list}
          empty={
            <Empty title={query ? `Nothing matches “${query}”` : 'No Q&A entries yet'}>
              {query ? 'Try other words.' : 'Add the questions your visitors ask most.'}
            </Empty>
          }
        />
        <ul class="item-list" aria-busy={list.loading}>
          {list.data?.data.map((qna) => (
            <li key={qna.id} class="item">
              <div class="item-main">
                <p class="item-title">{qna.question}</p>
                <p class="item-text">{qna.answer}</p>
                <p class="muted small">Updated {formatDate(qna.updatedAt)}</p>
              </div>
              <div class="item-actions">
                <EditDeleteButtons name={`“${qna.question}”`} onEdit={() => setEditing(qna)} onDelete={() => setDeleting(qna)} />
              </div>
            </li>
          ))}
        </ul>
        {list.data ? <Pager total={list.data.total} limit={PAGE} offset={offset} onChange={setOffset} /> : null}
      </Card>
      <Dialog open={editing !== null} title="Edit Q&A entry" onClose={() => setEditing(null)}>
        {editing ? <QnaForm initial={editing} submitLabel="Save" onCancel={() => setEditing(null)} onSubmit={update} /> : null}
      </Dialog>
      <DeleteDialog
        item={deleting}
        title="Delete this Q&A entry?"
        body={<p>“{deleting?.question}” will no longer be used in answers.</p>}
        confirmLabel="Delete"
        path={(item) => `/projects/${project.id}/qnas/${item.id}`}
        onDeleted={list.reload}
        onClose={() => setDeleting(null)}
      />
    </>
  );
};
