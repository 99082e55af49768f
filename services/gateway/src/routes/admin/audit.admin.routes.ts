import { AccountMessages, AuditPage, AuditQuery, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { existingProject } from './existing-project';

/** The project's audit log, newest first. */
export const auditAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  routes.add(
    {
      auth: 'admin',
      tag: 'admin: audit',
      permission: 'audit.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/audit',
      summary: 'Changes made through the admin API, newest first (filter by actor id, action or resource, time; page with cursor)',
      params: z.object({ projectId: Uuid }),
      query: AuditQuery,
      responses: { 200: { description: 'Audit entries', schema: AuditPage } },
    },
    async ({ params, query }) =>
      services.send(AccountMessages.listAudit, { projectId: await existingProject(services, params.projectId), query }),
  );
};
