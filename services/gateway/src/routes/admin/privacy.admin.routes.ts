import { ErasureRecord, ListErasuresQuery, PrivacyMessages, pagedList, VisitorExport } from '@palaver/contracts';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { ok } from '../../openapi/responses';
import { exportVisitor } from '../../privacy/visitor-export';
import { existingProject } from './existing-project';

/** A visitor's data: export it (GDPR art. 15), erase it (art. 17), and the record of erasures (docs/privacy.md). */
export const privacyAdminRoutes = (admin: AdminRoutes, deps: GatewayDeps, identity: IdentityCache): void => {
  const { services } = deps;
  admin.get(
    '/admin/v1/projects/:projectId/visitors/:visitorId/export',
    {
      permission: 'conversations.read',
      summary: 'Everything about a visitor as one JSON document: profile, conversations, messages, feedback',
      responses: ok("The visitor's data", VisitorExport),
    },
    async ({ params }) => {
      await existingProject(services, params.projectId);
      return exportVisitor(services, params.projectId, params.visitorId, new Date());
    },
  );

  admin.delete(
    '/admin/v1/projects/:projectId/visitors/:visitorId',
    {
      permission: 'project.update',
      summary: 'Erase a visitor: profile and sessions, conversations and messages (crypto-shredded); the erasure is recorded',
      responses: ok('The record of the erasure (no erased content)', ErasureRecord),
    },
    async ({ params, actor }) => {
      await existingProject(services, params.projectId);
      const record = await services.send(PrivacyMessages.eraseVisitor, {
        projectId: params.projectId,
        visitor: { visitorId: params.visitorId },
        erasedBy: { kind: 'admin', id: null },
        actor,
      });
      // Identity announced it to every gateway; this one drops it before answering, whatever the pub/sub latency.
      identity.apply({ kind: 'visitor-erased', projectId: record.projectId, visitorId: record.visitorId });
      return record;
    },
  );

  admin.get(
    '/admin/v1/projects/:projectId/erasures',
    {
      permission: 'audit.read',
      summary: "The project's erasures (who, when, which visitor id), newest first",
      query: ListErasuresQuery,
      responses: ok('Erasure records', pagedList(ErasureRecord)),
    },
    async ({ params, query }) => {
      await existingProject(services, params.projectId);
      return services.send(PrivacyMessages.listErasures, { ...params, ...query });
    },
  );
};
