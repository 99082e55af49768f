import { AccountMessages, CreatedUser, CreateUserBody, UpdateUserBody, UserRecord, Uuid } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const UserPath = z.object({ userId: Uuid });

/** The invitation link as the invitee opens it: on the origin the admin called. */
const absolute = (request: FastifyRequest, path: string): string => `${request.protocol}://${request.host}${path}`;

/** Users of the dashboard: the admin token, or an owner of any project. */
export const userAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: users', permission: 'global.users.manage' } as const;

  routes.add(
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/users',
      summary: 'Create a user; without a password the answer carries a one-time invitation link (shown once)',
      body: CreateUserBody,
      responses: { 201: { description: 'User', schema: CreatedUser } },
    },
    async ({ body, actor, request, reply }) => {
      const user = await services.send(AccountMessages.createUser, { actor, body });
      const invitation = user.invitation ? { ...user.invitation, url: absolute(request, user.invitation.url) } : null;
      return reply.status(201).send({ ...user, invitation });
    },
  );

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/users',
      summary: 'Every user',
      responses: { 200: { description: 'Users', schema: z.object({ data: z.array(UserRecord) }) } },
    },
    async () => services.send(AccountMessages.listUsers, {}),
  );

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/users/:userId',
      summary: 'One user',
      params: UserPath,
      responses: { 200: { description: 'User', schema: UserRecord } },
    },
    async ({ params }) => services.send(AccountMessages.getUser, params),
  );

  routes.add(
    {
      ...admin,
      method: 'PATCH',
      url: '/admin/v1/users/:userId',
      summary: "Change a user's name, picture or password",
      params: UserPath,
      body: UpdateUserBody,
      responses: { 200: { description: 'User', schema: UserRecord } },
    },
    async ({ params, body, actor }) => services.send(AccountMessages.updateUser, { actor, userId: params.userId, patch: body }),
  );

  routes.add(
    {
      ...admin,
      method: 'DELETE',
      url: '/admin/v1/users/:userId',
      summary: 'Delete a user with their memberships, sessions and API tokens (409 while the last owner of a project)',
      params: UserPath,
      responses: { 200: { description: 'The deleted user', schema: UserRecord } },
    },
    async ({ params, actor }) => services.send(AccountMessages.deleteUser, { actor, userId: params.userId }),
  );
};
