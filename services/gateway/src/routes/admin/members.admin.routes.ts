import { AccountMessages, Member, Membership, PutMemberBody } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { dataList, ok } from '../../openapi/responses';

/** Who has which role in a project. */
export const memberAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  admin.put(
    '/admin/v1/projects/:projectId/members/:userId',
    {
      permission: 'members.manage',
      summary: 'Give a user a role in the project, or change it (409 when it would leave the project without an owner)',
      body: PutMemberBody,
      responses: ok('Membership', Membership),
    },
    async ({ params, body, actor }) => services.send(AccountMessages.putMember, { actor, ...params, body }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/members',
    {
      permission: 'members.read',
      summary: "The project's members with their roles",
      responses: ok('Members', dataList(Member)),
    },
    async ({ params }) => services.send(AccountMessages.listMembers, params),
  );

  admin.delete(
    '/admin/v1/projects/:projectId/members/:userId',
    {
      permission: 'members.manage',
      summary: 'Remove a user from the project (409 for its last owner)',
      responses: ok('The removed membership', Membership),
    },
    async ({ params, actor }) => services.send(AccountMessages.removeMember, { actor, ...params }),
  );
};
