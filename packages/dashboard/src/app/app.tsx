import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation, useRoute } from 'preact-iso';
import { ErrorNotice, Loading } from './components/ui';
import { onSignedOut } from './lib/api';
import { ProjectProvider, useProject } from './lib/project-context';
import { clearToken, readToken } from './lib/session';
import { AnalyticsPage } from './pages/analytics';
import { AssistantsPage } from './pages/assistants';
import { ConversationPage, ConversationsPage } from './pages/conversations';
import { InboxPage } from './pages/inbox';
import { InsightsPage } from './pages/insights';
import { KeysPage } from './pages/keys';
import { ProjectsPage } from './pages/projects';
import { QnaPage } from './pages/qna';
import { SettingsPage } from './pages/settings';
import { SignIn } from './pages/sign-in';
import { SourcePage } from './pages/source';
import { SourcesPage } from './pages/sources';
import { WidgetPage } from './pages/widget';

export const BASE = '/dashboard';
// Upload pulls in the HTML-to-text converter and the schemas: loaded when the page opens.
const DocumentsPage = lazy(() => import('./pages/documents').then((m) => m.DocumentsPage));
// The feed types come from the contracts (and their schemas): loaded when the page opens.
const WebhooksPage = lazy(() => import('./pages/webhooks').then((m) => m.WebhooksPage));

const SECTIONS = [
  ['settings', 'Settings'],
  ['keys', 'Keys'],
  ['assistants', 'Assistants'],
  ['qna', 'Q&A'],
  ['documents', 'Documents'],
  ['sources', 'Sources'],
  ['widget', 'Widget'],
  ['conversations', 'Conversations'],
  ['insights', 'Insights'],
  ['analytics', 'Feedback'],
  ['webhooks', 'Webhooks'],
  ['inbox', 'Inbox'],
] as const;

const ProjectNav = () => {
  const { project } = useProject();
  const { path } = useLocation();
  return (
    <nav class="sidebar" aria-label="Project">
      <a class="sidebar-back" href={`${BASE}/`}>
        ← All projects
      </a>
      <p class="sidebar-project" title={project.name}>
        {project.name}
      </p>
      <ul>
        {SECTIONS.map(([slug, label]) => {
          const href = `${BASE}/projects/${project.id}/${slug}`;
          const current = path === href || path.startsWith(`${href}/`);
          return (
            <li key={slug}>
              <a href={href} aria-current={current ? 'page' : undefined}>
                {label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
};

const ProjectArea = () => {
  const { params } = useRoute();
  const projectId = params.projectId ?? '';
  return (
    <ProjectProvider
      projectId={projectId}
      fallback={({ loading, error, reload }) =>
        loading ? <Loading label="Loading the project…" /> : <ErrorNotice error={error} onRetry={reload} />
      }
    >
      <div class="with-sidebar">
        <ProjectNav />
        <main id="main" class="content" tabIndex={-1}>
          <Router>
            <Route path="/settings" component={SettingsPage} />
            <Route path="/keys" component={KeysPage} />
            <Route path="/assistants" component={AssistantsPage} />
            <Route path="/qna" component={QnaPage} />
            <Route path="/documents" component={DocumentsPage} />
            <Route path="/sources/:sourceId" component={SourcePage} />
            <Route path="/sources" component={SourcesPage} />
            <Route path="/widget" component={WidgetPage} />
            <Route path="/conversations/:conversationId" component={ConversationPage} />
            <Route path="/conversations" component={ConversationsPage} />
            <Route path="/insights" component={InsightsPage} />
            <Route path="/analytics" component={AnalyticsPage} />
            <Route path="/webhooks" component={WebhooksPage} />
            <Route path="/inbox" component={InboxPage} />
            <Route default component={SettingsPage} />
          </Router>
        </main>
      </div>
    </ProjectProvider>
  );
};

const NotFound = () => (
  <main id="main" class="content">
    <ErrorNotice error={new Error('There is no such page in the dashboard.')} />
    <a href={`${BASE}/`}>Back to the projects</a>
  </main>
);

export const App = () => {
  const [signedIn, setSignedIn] = useState(() => readToken() !== null);
  useEffect(() => onSignedOut(() => setSignedIn(false)), []);
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const signOut = () => {
    clearToken();
    setSignedIn(false);
  };
  return (
    <LocationProvider scope={BASE}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link; the handler only moves focus without a route change */}
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          // Focus the content without a navigation (the router would take the hash as a route).
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href={`${BASE}/`}>
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>
          Palaver
        </a>
        <button type="button" class="button button-ghost" onClick={signOut}>
          Sign out
        </button>
      </header>
      <ErrorBoundary>
        <Router>
          <Route path={`${BASE}/`} component={ProjectsPage} />
          <Route path={`${BASE}`} component={ProjectsPage} />
          <Route path={`${BASE}/projects/:projectId/*`} component={ProjectArea} />
          <Route default component={NotFound} />
        </Router>
      </ErrorBoundary>
    </LocationProvider>
  );
};
