import { AccountMessages, AuditPage, AuditQuery, IdentityMessages } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { ok } from '../../openapi/responses';
import { existingProject } from './existing-project';

const wasDeleted = async (services: GatewayDeps['services'], projectId: string): Promise<boolean> =>
  (await services.send(IdentityMessages.listDeletedProjects, {})).data.some((project) => project.id === projectId);

/** The project's audit log, newest first. */
export const auditAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  admin.get(
    '/admin/v1/projects/:projectId/audit',
    {
      permission: 'audit.read',
      summary: 'Changes made through the admin API, newest first (filter by actor id, action or resource, time; page with cursor)',
      query: AuditQuery,
      responses: ok('Audit entries', AuditPage),
    },
    async ({ params, query, principal }) => {
      await existingProject(services, params.projectId).catch(async (err: unknown) => {
        // A deleted project's log stays readable by the admin token (its members are gone): what was done, and who deleted it.
        if (principal.kind !== 'admin-token' || !(await wasDeleted(services, params.projectId))) throw err;
      });
      return services.send(AccountMessages.listAudit, { projectId: params.projectId, query });
    },
  );
};
