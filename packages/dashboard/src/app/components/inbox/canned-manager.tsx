import { useState } from 'preact/hooks';
import { api } from '../../lib/api';
import type { CannedReply } from '../../lib/inbox-types';
import { useAsync } from '../../lib/use-async';
import { Button, DeleteDialog, Dialog, Empty, Field, FormActions, ListStatus, useSubmit } from '../ui';

const EMPTY = { shortcut: '', title: '', content: '' };

/** The project's canned replies for its owners and admins: add, edit, delete. */
export const CannedManager = ({ projectId, open, onClose }: { projectId: string; open: boolean; onClose: () => void }) => {
  const path = `/projects/${projectId}/canned-replies`;
  const list = useAsync((signal) => (open ? api<{ data: CannedReply[] }>(path, { signal }) : Promise.resolve(undefined)), [path, open]);
  const [draft, setDraft] = useState(EMPTY);
  const [editing, setEditing] = useState<CannedReply | null>(null);
  const [deleting, setDeleting] = useState<CannedReply | null>(null);
  const save = useSubmit(async () => {
    if (editing) await api(`${path}/${editing.id}`, { method: 'PATCH', body: draft });
    else await api(path, { body: draft });
    setDraft(EMPTY);
    setEditing(null);
    list.reload();
  });
  const set = (key: keyof typeof EMPTY) => (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
    setDraft({ ...draft, [key]: e.currentTarget.value });

  return (
    <Dialog open={open} title="Canned replies" onClose={onClose}>
      <p class="muted small">Agents insert one by typing “/” and its shortcut at the start of a reply.</p>
      <ListStatus state={list} empty={<Empty title="No canned replies yet" />} />
      <ul class="item-list canned-manage-list">
        {list.data?.data.map((reply) => (
          <li key={reply.id} class="item">
            <div class="item-main">
              <p class="item-title">
                <code>/{reply.shortcut}</code> {reply.title}
              </p>
              <p class="item-text">{reply.content}</p>
            </div>
            <div class="item-actions">
              <Button
                variant="secondary"
                class="button-small"
                aria-label={`Edit /${reply.shortcut}`}
                onClick={() => {
                  setEditing(reply);
                  setDraft({ shortcut: reply.shortcut, title: reply.title, content: reply.content });
                }}
              >
                Edit
              </Button>
              <Button variant="danger" class="button-small" aria-label={`Delete /${reply.shortcut}`} onClick={() => setDeleting(reply)}>
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <form
        class="form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <h3 class="pane-subtitle">{editing ? `Edit /${editing.shortcut}` : 'New canned reply'}</h3>
        <Field label="Shortcut" hint="Lowercase letters, digits and dashes, e.g. refund-policy">
          <input
            name="shortcut"
            required
            maxLength={32}
            pattern="[a-z0-9][a-z0-9\-]{0,31}"
            value={draft.shortcut}
            onInput={set('shortcut')}
          />
        </Field>
        <Field label="Title">
          <input name="title" required maxLength={200} value={draft.title} onInput={set('title')} />
        </Field>
        <Field label="Content" hint="Markdown, as in a reply">
          <textarea name="content" required rows={4} maxLength={5000} value={draft.content} onInput={set('content')} />
        </Field>
        <div class="row">
          <FormActions submit={save} label={editing ? 'Save canned reply' : 'Add canned reply'} />
          {editing ? (
            <Button
              variant="secondary"
              onClick={() => {
                setEditing(null);
                setDraft(EMPTY);
              }}
            >
              Cancel edit
            </Button>
          ) : null}
          <Button variant="secondary" onClick={onClose}>
            Done
          </Button>
        </div>
      </form>
      <DeleteDialog
        item={deleting}
        title="Delete this canned reply?"
        body={<p>/{deleting?.shortcut} is no longer offered to agents.</p>}
        confirmLabel="Delete"
        path={(item) => `${path}/${item.id}`}
        onDeleted={list.reload}
        onClose={() => setDeleting(null)}
      />
    </Dialog>
  );
};
