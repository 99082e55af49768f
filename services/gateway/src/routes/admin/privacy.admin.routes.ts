import {
  AdminVisitorParams,
  ErasureRecord,
  IdentityMessages,
  ListErasuresQuery,
  PrivacyMessages,
  pagedList,
  Uuid,
  VisitorExport,
} from '@palaver/contracts';
import { z } from 'zod';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { exportVisitor } from '../../privacy/visitor-export';

const ProjectPath = z.object({ projectId: Uuid });

/** A visitor's data: export it (GDPR art. 15), erase it (art. 17), and the record of erasures (docs/privacy.md). */
export const privacyAdminRoutes = (routes: Routes, deps: GatewayDeps, identity: IdentityCache): void => {
  const { services } = deps;
  const admin = { auth: 'admin', tag: 'admin: privacy' } as const;

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/projects/:projectId/visitors/:visitorId/export',
      permission: 'conversations.read',
      summary: 'Everything about a visitor as one JSON document: profile, conversations, messages, feedback',
      params: AdminVisitorParams,
      responses: { 200: { description: "The visitor's data", schema: VisitorExport } },
    },
    async ({ params }) => {
      await services.send(IdentityMessages.getProject, { projectId: params.projectId });
      return exportVisitor(services, params.projectId, params.visitorId, new Date());
    },
  );

  routes.add(
    {
      ...admin,
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/visitors/:visitorId',
      permission: 'project.update',
      summary: 'Erase a visitor: profile and sessions, conversations and messages (crypto-shredded); the erasure is recorded',
      params: AdminVisitorParams,
      responses: { 200: { description: 'The record of the erasure (no erased content)', schema: ErasureRecord } },
    },
    async ({ params, actor }) => {
      await services.send(IdentityMessages.getProject, { projectId: params.projectId });
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

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/projects/:projectId/erasures',
      permission: 'audit.read',
      summary: "The project's erasures (who, when, which visitor id), newest first",
      params: ProjectPath,
      query: ListErasuresQuery,
      responses: { 200: { description: 'Erasure records', schema: pagedList(ErasureRecord) } },
    },
    async ({ params, query }) => {
      await services.send(IdentityMessages.getProject, params);
      return services.send(PrivacyMessages.listErasures, { ...params, ...query });
    },
  );
};
