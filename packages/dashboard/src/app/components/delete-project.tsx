import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../lib/api';
import { allows, useAuth } from '../lib/auth';
import { useProject } from '../lib/project-context';
import { TextField } from './fields';
import { Button, Card, ConfirmDialog } from './ui';

/**
 * The Settings page's danger zone, for the roles that may delete the project (owners, the admin
 * token): a dialog that asks for the project's name, then the projects list.
 */
export const DeleteProject = () => {
  const { project } = useProject();
  const auth = useAuth();
  const { route } = useLocation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  if (!allows(auth, project.id, 'project.delete')) return null;
  return (
    <Card title="Danger zone">
      <p class="muted">
        Deleting the project stops its keys, widget sessions and agent tokens at once, removes its members, and erases its conversations and
        knowledge. It cannot be undone.
      </p>
      <Button
        variant="danger"
        onClick={() => {
          setTyped('');
          setOpen(true);
        }}
      >
        Delete project
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete ${project.name}?`}
        body={
          <>
            <p>Its conversations, knowledge, keys and members are gone for good. Type the project's name to confirm.</p>
            <TextField label="Project name" name="confirmName" autoComplete="off" value={typed} onValue={setTyped} />
          </>
        }
        confirmLabel="Delete project"
        confirmDisabled={typed.trim() !== project.name}
        onConfirm={async () => {
          await api(`/projects/${project.id}`, { method: 'DELETE' });
          route('/dashboard/');
        }}
        onClose={() => setOpen(false)}
      />
    </Card>
  );
};
