import { AccountMessages, CreatedUser, CreateUserBody, UpdateUserBody, UserRecord } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { created, dataList, ok } from '../../openapi/responses';

/** The invitation link as the invitee opens it: on the origin the admin called. */
const absolute = (request: FastifyRequest, path: string): string => `${request.protocol}://${request.host}${path}`;

/** Users of the dashboard: the admin token, or an owner of any project. */
export const userAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  admin.post(
    '/admin/v1/users',
    {
      permission: 'global.users.manage',
      summary: 'Create a user; without a password the answer carries a one-time invitation link (shown once)',
      body: CreateUserBody,
      responses: created('User', CreatedUser),
    },
    async ({ body, actor, request }) => {
      const user = await services.send(AccountMessages.createUser, { actor, body });
      const invitation = user.invitation ? { ...user.invitation, url: absolute(request, user.invitation.url) } : null;
      return { ...user, invitation };
    },
  );

  admin.get(
    '/admin/v1/users',
    {
      permission: 'global.users.manage',
      summary: 'Every user',
      responses: ok('Users', dataList(UserRecord)),
    },
    async () => services.send(AccountMessages.listUsers, {}),
  );

  admin.get(
    '/admin/v1/users/:userId',
    {
      permission: 'global.users.manage',
      summary: 'One user',
      responses: ok('User', UserRecord),
    },
    async ({ params }) => services.send(AccountMessages.getUser, params),
  );

  admin.patch(
    '/admin/v1/users/:userId',
    {
      permission: 'global.users.manage',
      summary: "Change a user's name, picture or password",
      body: UpdateUserBody,
      responses: ok('User', UserRecord),
    },
    async ({ params, body, actor }) => services.send(AccountMessages.updateUser, { actor, userId: params.userId, patch: body }),
  );

  admin.delete(
    '/admin/v1/users/:userId',
    {
      permission: 'global.users.manage',
      summary: 'Delete a user with their memberships, sessions and API tokens (409 while the last owner of a project)',
      responses: ok('The deleted user', UserRecord),
    },
    async ({ params, actor }) => services.send(AccountMessages.deleteUser, { actor, userId: params.userId }),
  );
};
