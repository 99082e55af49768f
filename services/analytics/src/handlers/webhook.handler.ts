import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { WebhookMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { WebhookService } from '../services/webhook.service';

@Controller()
export class WebhookHandler {
  constructor(@Inject(WebhookService) private readonly webhooks: WebhookService) {}

  @MessagePattern(M.create.subject)
  create(@Payload() raw: unknown) {
    return handle(M.create, raw, (req) => this.webhooks.create(req.projectId, req.body, req.actor));
  }

  @MessagePattern(M.list.subject)
  list(@Payload() raw: unknown) {
    return handle(M.list, raw, (req) => this.webhooks.list(req.projectId));
  }

  @MessagePattern(M.get.subject)
  get(@Payload() raw: unknown) {
    return handle(M.get, raw, (req) => this.webhooks.get(req.projectId, req.webhookId));
  }

  @MessagePattern(M.update.subject)
  update(@Payload() raw: unknown) {
    return handle(M.update, raw, (req) => this.webhooks.update(req.projectId, req.webhookId, req.patch, req.actor));
  }

  @MessagePattern(M.delete.subject)
  delete(@Payload() raw: unknown) {
    return handle(M.delete, raw, (req) => this.webhooks.delete(req.projectId, req.webhookId, req.actor));
  }

  @MessagePattern(M.rotateSecret.subject)
  rotateSecret(@Payload() raw: unknown) {
    return handle(M.rotateSecret, raw, (req) => this.webhooks.rotateSecret(req.projectId, req.webhookId, req.actor));
  }

  @MessagePattern(M.sendTest.subject)
  sendTest(@Payload() raw: unknown) {
    return handle(M.sendTest, raw, (req) => this.webhooks.sendTest(req.projectId, req.webhookId));
  }

  @MessagePattern(M.listDeliveries.subject)
  listDeliveries(@Payload() raw: unknown) {
    return handle(M.listDeliveries, raw, (req) =>
      this.webhooks.listDeliveries(req.projectId, req.webhookId, req.status, req.limit, req.offset),
    );
  }

  @MessagePattern(M.retryDelivery.subject)
  retryDelivery(@Payload() raw: unknown) {
    return handle(M.retryDelivery, raw, (req) => this.webhooks.retryDelivery(req.projectId, req.webhookId, req.deliveryId));
  }
}
