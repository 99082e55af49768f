import { AppUserId, ErasureRecord, PrivacyMessages } from '@palaver/contracts';
import { z } from 'zod';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const CustomerPath = z.object({ appUserId: AppUserId });

/** Surface B's erasure of a customer (docs/surface-b.md, docs/privacy.md). */
export const customerErasureRoutes = (routes: Routes, deps: GatewayDeps, identity: IdentityCache): void => {
  const base = deps.config.SURFACE_B_BASE;
  routes.add(
    {
      auth: 'serviceKey',
      tag: 'surface B',
      method: 'DELETE',
      url: `${base}/customers/:appUserId`,
      summary: 'Erase a customer: profile and sessions, chats and messages (crypto-shredded); the erasure is recorded',
      params: CustomerPath,
      responses: { 200: { description: 'The record of the erasure (no erased content)', schema: ErasureRecord } },
    },
    async ({ params, key }) => {
      const record = await deps.services.send(PrivacyMessages.eraseVisitor, {
        projectId: key.projectId,
        visitor: { appUserId: params.appUserId },
        erasedBy: { kind: 'api_key', id: key.keyId },
      });
      identity.apply({ kind: 'visitor-erased', projectId: record.projectId, visitorId: record.visitorId });
      return record;
    },
  );
};
