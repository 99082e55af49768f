import { AccountMessages, Member, Membership, PutMemberBody, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const ProjectPath = z.object({ projectId: Uuid });
const MemberPath = ProjectPath.extend({ userId: Uuid });

/** Who has which role in a project. */
export const memberAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: members' } as const;

  routes.add(
    {
      ...admin,
      permission: 'members.manage',
      method: 'PUT',
      url: '/admin/v1/projects/:projectId/members/:userId',
      summary: 'Give a user a role in the project, or change it (409 when it would leave the project without an owner)',
      params: MemberPath,
      body: PutMemberBody,
      responses: { 200: { description: 'Membership', schema: Membership } },
    },
    async ({ params, body, actor }) => services.send(AccountMessages.putMember, { actor, ...params, body }),
  );

  routes.add(
    {
      ...admin,
      permission: 'members.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/members',
      summary: "The project's members with their roles",
      params: ProjectPath,
      responses: { 200: { description: 'Members', schema: z.object({ data: z.array(Member) }) } },
    },
    async ({ params }) => services.send(AccountMessages.listMembers, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'members.manage',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/members/:userId',
      summary: 'Remove a user from the project (409 for its last owner)',
      params: MemberPath,
      responses: { 200: { description: 'The removed membership', schema: Membership } },
    },
    async ({ params, actor }) => services.send(AccountMessages.removeMember, { actor, ...params }),
  );
};
