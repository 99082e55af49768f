import {
  DeliveryStatus,
  pagedList,
  QueryOffset,
  queryInt,
  UpdateWebhookBody,
  Webhook,
  WebhookBody,
  WebhookDelivery,
  WebhookMessages,
  WebhookWithSecret,
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { accepted, created, noContent, ok } from '../../openapi/responses';
import { existingProject } from './existing-project';

const DeliveriesQuery = z.object({ status: DeliveryStatus.optional(), limit: queryInt(1, 100).default(20), offset: QueryOffset });

/** Signed webhook endpoints (Standard Webhooks) and their deliveries: the analytics service keeps them. */
export const webhooksAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  const base = '/admin/v1/projects/:projectId/webhooks';

  admin.post(
    base,
    {
      permission: 'project.update',
      summary:
        'Register an endpoint for feed event types (or "*"); the answer carries its signing secret, shown only here (an unknown type or a URL that may not be reached is 422)',
      body: WebhookBody,
      responses: created('The endpoint, with its secret', WebhookWithSecret),
    },
    async ({ params, body, actor }) =>
      services.send(WebhookMessages.create, { projectId: await existingProject(services, params.projectId), actor, body }),
  );

  admin.get(
    base,
    {
      permission: 'project.update',
      summary: "The project's webhook endpoints (without secrets), oldest first",
      responses: ok('Endpoints', z.object({ object: z.literal('list'), data: z.array(Webhook) })),
    },
    async ({ params }) => services.send(WebhookMessages.list, { projectId: await existingProject(services, params.projectId) }),
  );

  admin.get(
    `${base}/:webhookId`,
    {
      permission: 'project.update',
      summary: 'One endpoint (without its secret)',
      responses: ok('Endpoint', Webhook),
    },
    async ({ params }) => services.send(WebhookMessages.get, params),
  );

  admin.patch(
    `${base}/:webhookId`,
    {
      permission: 'project.update',
      summary: 'Change an endpoint; enabled: true re-enables one the product disabled for failing',
      body: UpdateWebhookBody,
      responses: ok('Endpoint', Webhook),
    },
    async ({ params, body, actor }) => services.send(WebhookMessages.update, { ...params, actor, patch: body }),
  );

  admin.delete(
    `${base}/:webhookId`,
    {
      permission: 'project.update',
      summary: 'Remove an endpoint and its deliveries',
      responses: noContent('Deleted'),
    },
    async ({ params, actor }) => services.send(WebhookMessages.delete, { ...params, actor }),
  );

  admin.post(
    `${base}/:webhookId/rotate-secret`,
    {
      permission: 'project.update',
      summary: 'Replace the signing secret at once (shown only in this answer); attempts from now on are signed with it',
      responses: ok('The endpoint, with its new secret', WebhookWithSecret),
    },
    async ({ params, actor }) => services.send(WebhookMessages.rotateSecret, { ...params, actor }),
  );

  admin.post(
    `${base}/:webhookId/test`,
    {
      permission: 'project.update',
      summary: 'Send a webhook.test event to the endpoint now (a delivery like any other, with its retries)',
      responses: accepted('The delivery', WebhookDelivery),
    },
    async ({ params }) => services.send(WebhookMessages.sendTest, params),
  );

  admin.get(
    `${base}/:webhookId/deliveries`,
    {
      permission: 'project.update',
      summary: "The endpoint's deliveries, newest first, with their attempts and last outcome",
      query: DeliveriesQuery,
      responses: ok('Deliveries', pagedList(WebhookDelivery)),
    },
    async ({ params, query }) => services.send(WebhookMessages.listDeliveries, { ...params, ...query }),
  );

  admin.post(
    `${base}/:webhookId/deliveries/:deliveryId/retry`,
    {
      permission: 'project.update',
      summary: 'Resend a delivery now (one more attempt, signed afresh, the same webhook-id)',
      responses: accepted('The delivery, pending', WebhookDelivery),
    },
    async ({ params }) => services.send(WebhookMessages.retryDelivery, params),
  );
};
