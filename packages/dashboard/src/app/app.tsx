import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation, useRoute } from 'preact-iso';
import { ErrorNotice, Loading } from './components/ui';
import { authApi, onSignedOut } from './lib/api';
import { AuthProvider, allows, type DashboardAuth, landingPath, useAuth } from './lib/auth';
import { ProjectProvider, useProject } from './lib/project-context';
import { firstSection, SECTIONS } from './lib/sections';
import { clearToken, readToken } from './lib/session';
import type { Me } from './lib/types';
import { AnalyticsPage } from './pages/analytics';
import { AssistantsPage } from './pages/assistants';
import { AuditLogPage } from './pages/audit';
import { ConversationPage, ConversationsPage } from './pages/conversations';
import { InboxPage } from './pages/inbox';
import { InsightsPage } from './pages/insights';
import { KeysPage } from './pages/keys';
import { MembersPage } from './pages/members';
import { ProjectsPage } from './pages/projects';
import { QnaPage } from './pages/qna';
import { SettingsPage } from './pages/settings';
import { AcceptInvite, SignIn } from './pages/sign-in';
import { SourcePage } from './pages/source';
import { SourcesPage } from './pages/sources';
import { WidgetPage } from './pages/widget';

export const BASE = '/dashboard';
// Upload pulls in the HTML-to-text converter and the schemas: loaded when the page opens.
const DocumentsPage = lazy(() => import('./pages/documents').then((m) => m.DocumentsPage));
// The feed types come from the contracts (and their schemas): loaded when the page opens.
const WebhooksPage = lazy(() => import('./pages/webhooks').then((m) => m.WebhooksPage));

const ProjectNav = () => {
  const { project } = useProject();
  const auth = useAuth();
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
        {SECTIONS.filter(([, , permission]) => allows(auth, project.id, permission)).map(([slug, label]) => {
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
  const auth = useAuth();
  const projectId = params.projectId ?? '';
  const defaults: Record<string, () => preact.JSX.Element> = {
    settings: SettingsPage,
    conversations: ConversationsPage,
    inbox: InboxPage,
    analytics: AnalyticsPage,
  };
  const DefaultPage = defaults[firstSection(auth, projectId)] ?? ConversationsPage;
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
            <Route path="/members" component={MembersPage} />
            <Route path="/audit" component={AuditLogPage} />
            <Route default component={DefaultPage} />
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

/** The tab's admin token, else the session cookie's person, else nobody (null); undefined while asking. */
const useDashboardAuth = () => {
  const [auth, setAuth] = useState<DashboardAuth | null | undefined>(() => (readToken() !== null ? { kind: 'token' } : undefined));
  useEffect(() => {
    if (auth !== undefined) return;
    authApi<Me>('/me').then(
      (me) => setAuth({ kind: 'user', me }),
      () => setAuth(null),
    );
  }, [auth]);
  useEffect(() => onSignedOut(() => setAuth(null)), []);
  return [auth, setAuth] as const;
};

export const App = () => {
  const [auth, setAuth] = useDashboardAuth();
  if (auth === undefined) return <Loading label="Loading…" />;
  const signedIn = (next: DashboardAuth) => {
    setAuth(next);
    const landing = landingPath(next, BASE);
    if (landing) history.replaceState(null, '', landing);
  };
  if (location.pathname === `${BASE}/accept-invite`) return <AcceptInvite onSignedIn={signedIn} />;
  if (auth === null) return <SignIn onSignedIn={signedIn} />;
  const signOut = async () => {
    if (auth.kind === 'token') clearToken();
    else await authApi('/logout', { method: 'POST' }).catch(() => undefined);
    setAuth(null);
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
        <span class="topbar-user muted">{auth.kind === 'user' ? auth.me.name : 'Admin token'}</span>
        <button type="button" class="button button-ghost" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <AuthProvider auth={auth}>
        <ErrorBoundary>
          <Router>
            <Route path={`${BASE}/`} component={ProjectsPage} />
            <Route path={`${BASE}`} component={ProjectsPage} />
            <Route path={`${BASE}/projects/:projectId/*`} component={ProjectArea} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </AuthProvider>
    </LocationProvider>
  );
};
