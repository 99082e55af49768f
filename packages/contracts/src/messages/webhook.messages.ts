import { z } from 'zod';
import { Actor } from '../accounts/audit';
import { DeliveryStatus, UpdateWebhookBody, Webhook, WebhookBody, WebhookDelivery, WebhookWithSecret } from '../admin/webhook.admin';
import { QueryOffset, queryInt, Uuid } from '../common';
import { pagedList } from '../v2/list';
import { defineMessage } from './define';

const ProjectScope = z.object({ projectId: Uuid });
const WebhookScope = ProjectScope.extend({ webhookId: Uuid });
/** A change, with who makes it (for the audit log). */
const WebhookChange = WebhookScope.extend({ actor: Actor });

/** Webhook endpoints and their deliveries: the analytics service answers. */
export const WebhookMessages = {
  create: defineMessage('analytics.cmd.create-webhook.v1', ProjectScope.extend({ actor: Actor, body: WebhookBody }), WebhookWithSecret),
  list: defineMessage('analytics.qry.list-webhooks.v1', ProjectScope, z.object({ object: z.literal('list'), data: z.array(Webhook) })),
  get: defineMessage('analytics.qry.get-webhook.v1', WebhookScope, Webhook),
  update: defineMessage('analytics.cmd.update-webhook.v1', WebhookChange.extend({ patch: UpdateWebhookBody }), Webhook),
  delete: defineMessage('analytics.cmd.delete-webhook.v1', WebhookChange, z.object({ ok: z.literal(true) })),
  rotateSecret: defineMessage('analytics.cmd.rotate-webhook-secret.v1', WebhookChange, WebhookWithSecret),
  sendTest: defineMessage('analytics.cmd.send-test-webhook.v1', WebhookScope, WebhookDelivery),
  listDeliveries: defineMessage(
    'analytics.qry.list-webhook-deliveries.v1',
    WebhookScope.extend({ status: DeliveryStatus.optional(), limit: queryInt(1, 100).default(20), offset: QueryOffset }),
    pagedList(WebhookDelivery),
  ),
  retryDelivery: defineMessage('analytics.cmd.retry-webhook-delivery.v1', WebhookScope.extend({ deliveryId: Uuid }), WebhookDelivery),
} as const;
