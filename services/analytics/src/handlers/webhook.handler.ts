import { WebhookMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { WebhookService } from '../services/webhook.service';

export const WebhookHandler = messageHandlers('WebhookHandler', { webhooks: WebhookService }, (on) => [
  on(M.create, ({ webhooks }, req) => webhooks.create(req.projectId, req.body, req.actor)),
  on(M.list, ({ webhooks }, req) => webhooks.list(req.projectId)),
  on(M.get, ({ webhooks }, req) => webhooks.get(req.projectId, req.webhookId)),
  on(M.update, ({ webhooks }, req) => webhooks.update(req.projectId, req.webhookId, req.patch, req.actor)),
  on(M.delete, ({ webhooks }, req) => webhooks.delete(req.projectId, req.webhookId, req.actor)),
  on(M.rotateSecret, ({ webhooks }, req) => webhooks.rotateSecret(req.projectId, req.webhookId, req.actor)),
  on(M.sendTest, ({ webhooks }, req) => webhooks.sendTest(req.projectId, req.webhookId)),
  on(M.listDeliveries, ({ webhooks }, req) => webhooks.listDeliveries(req.projectId, req.webhookId, req.status, req.limit, req.offset)),
  on(M.retryDelivery, ({ webhooks }, req) => webhooks.retryDelivery(req.projectId, req.webhookId, req.deliveryId)),
]);
