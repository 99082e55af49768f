import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type PlanName, ProjectFields } from '../components/project-fields';
import { Card, Empty, Form, FormActions, formatDate, ListStatus, PageHeader, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import type { ProjectRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';

export const ProjectsPage = () => {
  const projects = useAsync((signal) => api<{ data: ProjectRecord[] }>('/projects', { signal }), []);
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [plan, setPlan] = useState<PlanName>('free');
  const create = useSubmit(async () => {
    const project = await api<ProjectRecord>('/projects', { body: { name, description, plan } });
    route(`/dashboard/projects/${project.id}/settings`);
  });

  return (
    <main id="main" class="content content-narrow" tabIndex={-1}>
      <PageHeader title="Projects" description="Each project has its own keys, assistants, knowledge, widget and conversations." />
      <Card title="New project">
        <Form class="form-grid" onSubmit={create.run}>
          <ProjectFields
            name={name}
            onName={setName}
            plan={plan}
            onPlan={setPlan}
            description={description}
            onDescription={setDescription}
            descriptionRows={2}
          />
          <FormActions submit={create} label="Create project" disabled={!name.trim()} />
        </Form>
      </Card>
      <Card title="All projects">
        <ListStatus state={projects} empty={<Empty title="No projects yet">Create the first one above.</Empty>} />
        {projects.data && projects.data.data.length > 0 ? (
          <ul class="project-list">
            {projects.data.data.map((project) => (
              <li key={project.id}>
                <a class="project-link" href={`/dashboard/projects/${project.id}/settings`}>
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
