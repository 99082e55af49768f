import { type ProjectPermission, ROLE_PERMISSIONS, type Role } from '@palaver/contracts/roles';
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Me } from './types';

/** Who uses the dashboard: the admin token (everything), or a person with a role per project. */
export type DashboardAuth = { kind: 'token' } | { kind: 'user'; me: Me };

const AuthContext = createContext<DashboardAuth>({ kind: 'token' });

export const AuthProvider = ({ auth, children }: { auth: DashboardAuth; children: ComponentChildren }) => (
  <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
);

export const useAuth = (): DashboardAuth => useContext(AuthContext);

export const roleIn = (auth: DashboardAuth, projectId: string): Role | null =>
  auth.kind === 'token' ? null : (auth.me.memberships.find((m) => m.projectId === projectId)?.role ?? null);

/** What the navigation and pages show: the admin token may do everything. */
export const allows = (auth: DashboardAuth, projectId: string, permission: ProjectPermission): boolean => {
  if (auth.kind === 'token') return true;
  const role = roleIn(auth, projectId);
  return role !== null && ROLE_PERMISSIONS[role].includes(permission);
};

/** Where a person lands: an agent of a single project goes straight to its inbox. */
export const landingPath = (auth: DashboardAuth, base: string): string | null => {
  if (auth.kind !== 'user') return null;
  const { memberships } = auth.me;
  if (memberships.length === 1 && memberships[0]!.role === 'agent') return `${base}/projects/${memberships[0]!.projectId}/inbox`;
  return null;
};
