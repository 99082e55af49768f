import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { TextField } from '../components/fields';
import { type ProjectDraft, ProjectFields } from '../components/project-fields';
import { Button, Card, Empty, Form, FormActions, formatDate, ListStatus, PageHeader, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import { useAuth } from '../lib/auth';
import { firstSection } from '../lib/sections';
import type { CreatedUser, ProjectRecord, UserRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';

/**
 * First run: the admin token and nobody to sign in. Creates the first owner, who becomes owner of
 * every existing project; the admin token stays for bootstrap and break-glass.
 */
const FirstOwner = ({ projects, onCreated }: { projects: ProjectRecord[]; onCreated: () => void }) => {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [open, setOpen] = useState(false);
  const create = useSubmit(async () => {
    const user = await api<CreatedUser>('/users', { body: { name, email, password } });
    for (const project of projects) {
      await api(`/projects/${project.id}/members/${user.id}`, { method: 'PUT', body: { role: 'owner' } });
    }
    onCreated();
  });
  return (
    <Card title="Create the first owner">
      <p class="muted">
        Nobody has an account yet. Create yours: you become owner of every project and can then invite your colleagues, each with their own
        role. Keep the admin token for automation and emergencies.
      </p>
      {open ? null : (
        <div>
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Create the first owner…
          </Button>
        </div>
      )}
      {open ? (
        <Form class="form-grid" onSubmit={create.run}>
          <TextField label="Owner's name" name="owner-name" required value={name} onValue={setName} />
          <TextField
            label="Owner's email"
            type="email"
            name="owner-email"
            autoComplete="username"
            required
            value={email}
            onValue={setEmail}
          />
          <TextField
            label="Owner's password"
            hint="At least 12 characters; common passwords are refused"
            type="password"
            name="owner-password"
            autoComplete="new-password"
            minLength={12}
            required
            value={password}
            onValue={setPassword}
          />
          <FormActions submit={create} label="Create the owner" disabled={!name.trim() || !email.trim() || password.length < 12} />
        </Form>
      ) : null}
    </Card>
  );
};

export const ProjectsPage = () => {
  const auth = useAuth();
  const projects = useAsync((signal) => api<{ data: ProjectRecord[] }>('/projects', { signal }), []);
  const users = useAsync(
    (signal) => (auth.kind === 'token' ? api<{ data: UserRecord[] }>('/users', { signal }) : Promise.resolve(null)),
    [auth.kind],
  );
  const mayCreate = auth.kind === 'token' || auth.me.memberships.some((m) => m.role === 'owner');
  const { route } = useLocation();
  const [draft, setDraft] = useState<ProjectDraft>({ name: '', plan: 'free', description: '' });
  const create = useSubmit(async () => {
    const project = await api<ProjectRecord>('/projects', { body: draft });
    route(`/dashboard/projects/${project.id}/settings`);
  });

  return (
    <main id="main" class="content content-narrow" tabIndex={-1}>
      <PageHeader title="Projects" description="Each project has its own keys, assistants, knowledge, widget and conversations." />
      {users.data && users.data.data.length === 0 && projects.data ? (
        <FirstOwner projects={projects.data.data} onCreated={users.reload} />
      ) : null}
      {mayCreate ? (
        <Card title="New project">
          <Form class="form-grid" onSubmit={create.run}>
            <ProjectFields value={draft} onChange={setDraft} descriptionRows={2} />
            <FormActions submit={create} label="Create project" disabled={!draft.name.trim()} />
          </Form>
        </Card>
      ) : null}
      <Card title={auth.kind === 'token' ? 'All projects' : 'Your projects'}>
        <ListStatus state={projects} empty={<Empty title="No projects yet">Create the first one above.</Empty>} />
        {projects.data && projects.data.data.length > 0 ? (
          <ul class="project-list">
            {projects.data.data.map((project) => (
              <li key={project.id}>
                <a class="project-link" href={`/dashboard/projects/${project.id}/${firstSection(auth, project.id)}`}>
                  <span class="project-name">{project.name}</span>
                  <span class="muted">{project.description || 'No description'}</span>
                  <span class="badge">{project.plan}</span>
                  <span class="muted small">Created {formatDate(project.createdAt)}</span>
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
    </main>
  );
};
