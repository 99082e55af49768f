import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { api } from './api';
import type { ProjectRecord } from './types';
import { useAsync } from './use-async';

interface ProjectContextValue {
  project: ProjectRecord;
  setProject: (project: ProjectRecord) => void;
  reload: () => void;
}

const ProjectContext = createContext<ProjectContextValue | null>(null);

export const useProject = (): ProjectContextValue => {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProject outside a project page');
  return value;
};

export const ProjectProvider = ({
  projectId,
  children,
  fallback,
}: {
  projectId: string;
  children: ComponentChildren;
  fallback: (state: { loading: boolean; error: unknown; reload: () => void }) => ComponentChildren;
}) => {
  const state = useAsync((signal) => api<ProjectRecord>(`/projects/${projectId}`, { signal }), [projectId]);
  if (!state.data || state.data.id !== projectId) return <>{fallback(state)}</>;
  return (
    <ProjectContext.Provider value={{ project: state.data, setProject: state.setData, reload: state.reload }}>
      {children}
    </ProjectContext.Provider>
  );
};
