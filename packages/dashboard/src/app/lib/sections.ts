import type { ProjectPermission } from '@palaver/contracts/roles';
import { allows, type DashboardAuth } from './auth';

/** Each section with the permission it needs: the navigation shows only what the role may do. */
export const SECTIONS: ReadonlyArray<readonly [string, string, ProjectPermission]> = [
  ['settings', 'Settings', 'project.update'],
  ['keys', 'Keys', 'keys.read'],
  ['assistants', 'Assistants', 'project.update'],
  ['qna', 'Q&A', 'knowledge.read'],
  ['documents', 'Documents', 'knowledge.read'],
  ['sources', 'Sources', 'knowledge.read'],
  ['widget', 'Widget', 'project.update'],
  ['conversations', 'Conversations', 'conversations.read'],
  ['insights', 'Insights', 'analytics.read'],
  ['analytics', 'Feedback', 'analytics.read'],
  ['webhooks', 'Webhooks', 'project.update'],
  ['inbox', 'Inbox', 'conversations.act'],
  ['members', 'Members', 'members.read'],
  ['audit', 'Audit log', 'audit.read'],
];

/** The first section the caller may open in a project (what a project link and its bare path open). */
export const firstSection = (auth: DashboardAuth, projectId: string): string => {
  // An agent works from the inbox.
  if (allows(auth, projectId, 'conversations.act') && !allows(auth, projectId, 'project.update')) return 'inbox';
  return SECTIONS.find(([, , permission]) => allows(auth, projectId, permission))?.[0] ?? 'conversations';
};
