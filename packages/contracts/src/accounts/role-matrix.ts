/**
 * The permission matrix, in plain TypeScript (no zod) so the dashboard's bundle can use it to
 * show only what the role may do (`@palaver/contracts/roles`). docs/accounts.md has it in prose.
 */
export const ROLES = ['owner', 'admin', 'agent', 'analyst'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What an admin route asks of its caller. Project permissions are checked against the caller's
 * role in the route's project; the `global.*` ones concern no single project.
 */
export const PROJECT_PERMISSIONS = [
  'project.read',
  'project.update',
  'project.delete',
  'keys.read',
  'keys.manage',
  'knowledge.read',
  'knowledge.write',
  'conversations.read',
  'conversations.act',
  'analytics.read',
  'agents.manage',
  /** The inbox's team-only data: canned replies and internal notes (owner, admin, agent). */
  'inbox.read',
  'cannedReplies.manage',
  'members.read',
  'members.manage',
  'audit.read',
] as const;
export const GLOBAL_PERMISSIONS = [
  /** Listing projects: anyone signed in, who sees the projects they have a role in. */
  'global.projects.list',
  /** Creating a project (the creator becomes its owner): the admin token or an owner of any project. */
  'global.projects.create',
  /** Users: the admin token or an owner of any project. */
  'global.users.manage',
  /** Operations (metrics): the admin token only. */
  'global.operations',
] as const;
export type ProjectPermission = (typeof PROJECT_PERMISSIONS)[number];
export type Permission = ProjectPermission | (typeof GLOBAL_PERMISSIONS)[number];

/**
 * owner: everything; admin: everything but members and deleting the project; agent: the inbox and
 * reading conversations; analyst: feedback, events, conversations and exports, read only.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly ProjectPermission[]> = {
  owner: PROJECT_PERMISSIONS,
  admin: PROJECT_PERMISSIONS.filter((p) => p !== 'members.manage' && p !== 'project.delete'),
  agent: ['project.read', 'conversations.read', 'conversations.act', 'inbox.read'],
  analyst: ['project.read', 'conversations.read', 'analytics.read'],
};

export const isProjectPermission = (permission: Permission): permission is ProjectPermission =>
  (PROJECT_PERMISSIONS as readonly string[]).includes(permission);

export const roleAllows = (role: Role, permission: ProjectPermission): boolean => ROLE_PERMISSIONS[role].includes(permission);
