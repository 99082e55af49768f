import {
  DeliveryStatus,
  pagedList,
  QueryOffset,
  queryInt,
  UpdateWebhookBody,
  Uuid,
  Webhook,
  WebhookBody,
  WebhookDelivery,
  WebhookMessages,
  WebhookWithSecret,
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { existingProject } from './existing-project';

const ProjectPath = z.object({ projectId: Uuid });
const WebhookPath = ProjectPath.extend({ webhookId: Uuid });
const DeliveryPath = WebhookPath.extend({ deliveryId: Uuid });
const DeliveriesQuery = z.object({ status: DeliveryStatus.optional(), limit: queryInt(1, 100).default(20), offset: QueryOffset });

/** Signed webhook endpoints (Standard Webhooks) and their deliveries: the analytics service keeps them. */
export const webhooksAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', permission: 'project.update', tag: 'admin: webhooks' } as const;
  const base = '/admin/v1/projects/:projectId/webhooks';

  routes.add(
    {
      ...admin,
      method: 'POST',
      url: base,
      summary:
        'Register an endpoint for feed event types (or "*"); the answer carries its signing secret, shown only here (an unknown type or a URL that may not be reached is 422)',
      params: ProjectPath,
      body: WebhookBody,
      responses: { 201: { description: 'The endpoint, with its secret', schema: WebhookWithSecret } },
    },
    async ({ params, body, actor, reply }) =>
      reply
        .status(201)
        .send(await services.send(WebhookMessages.create, { projectId: await existingProject(services, params.projectId), actor, body })),
  );

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: base,
      summary: "The project's webhook endpoints (without secrets), oldest first",
      params: ProjectPath,
      responses: { 200: { description: 'Endpoints', schema: z.object({ object: z.literal('list'), data: z.array(Webhook) }) } },
    },
    async ({ params }) => services.send(WebhookMessages.list, { projectId: await existingProject(services, params.projectId) }),
  );

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: `${base}/:webhookId`,
      summary: 'One endpoint (without its secret)',
      params: WebhookPath,
      responses: { 200: { description: 'Endpoint', schema: Webhook } },
    },
    async ({ params }) => services.send(WebhookMessages.get, params),
  );

  routes.add(
    {
      ...admin,
      method: 'PATCH',
      url: `${base}/:webhookId`,
      summary: 'Change an endpoint; enabled: true re-enables one the product disabled for failing',
      params: WebhookPath,
      body: UpdateWebhookBody,
      responses: { 200: { description: 'Endpoint', schema: Webhook } },
    },
    async ({ params, body, actor }) => services.send(WebhookMessages.update, { ...params, actor, patch: body }),
  );

  routes.add(
    {
      ...admin,
      method: 'DELETE',
      url: `${base}/:webhookId`,
      summary: 'Remove an endpoint and its deliveries',
      params: WebhookPath,
      responses: { 204: { description: 'Deleted' } },
    },
    async ({ params, actor, reply }) => {
      await services.send(WebhookMessages.delete, { ...params, actor });
      return reply.status(204).send();
    },
  );

  routes.add(
    {
      ...admin,
      method: 'POST',
      url: `${base}/:webhookId/rotate-secret`,
      summary: 'Replace the signing secret at once (shown only in this answer); attempts from now on are signed with it',
      params: WebhookPath,
      responses: { 200: { description: 'The endpoint, with its new secret', schema: WebhookWithSecret } },
    },
    async ({ params, actor }) => services.send(WebhookMessages.rotateSecret, { ...params, actor }),
  );

  routes.add(
    {
      ...admin,
      method: 'POST',
      url: `${base}/:webhookId/test`,
      summary: 'Send a webhook.test event to the endpoint now (a delivery like any other, with its retries)',
      params: WebhookPath,
      responses: { 202: { description: 'The delivery', schema: WebhookDelivery } },
    },
    async ({ params, reply }) => reply.status(202).send(await services.send(WebhookMessages.sendTest, params)),
  );

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: `${base}/:webhookId/deliveries`,
      summary: "The endpoint's deliveries, newest first, with their attempts and last outcome",
      params: WebhookPath,
      query: DeliveriesQuery,
      responses: { 200: { description: 'Deliveries', schema: pagedList(WebhookDelivery) } },
    },
    async ({ params, query }) => services.send(WebhookMessages.listDeliveries, { ...params, ...query }),
  );

  routes.add(
    {
      ...admin,
      method: 'POST',
      url: `${base}/:webhookId/deliveries/:deliveryId/retry`,
      summary: 'Resend a delivery now (one more attempt, signed afresh, the same webhook-id)',
      params: DeliveryPath,
      responses: { 202: { description: 'The delivery, pending', schema: WebhookDelivery } },
    },
    async ({ params, reply }) => reply.status(202).send(await services.send(WebhookMessages.retryDelivery, params)),
  );
};
