import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';

export interface StoredWebhook {
  _id: string;
  projectId: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  secret: string;
  createdAt: string;
  updatedAt: string;
}

/** Webhook endpoints (`webhooks`), with their signing secrets. */
@Injectable()
export class WebhookRepository {
  private readonly webhooks: Collection<StoredWebhook>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.webhooks = documents.collection<StoredWebhook>('webhooks', [{ keys: { projectId: 1, createdAt: 1 } }]);
  }

  insert(webhook: StoredWebhook): Promise<void> {
    return this.webhooks.insertOne(webhook);
  }

  find(projectId: string, webhookId: string): Promise<StoredWebhook | null> {
    return this.webhooks.findOne({ _id: webhookId, projectId });
  }

  byId(webhookId: string): Promise<StoredWebhook | null> {
    return this.webhooks.findOne({ _id: webhookId });
  }

  list(projectId: string): Promise<StoredWebhook[]> {
    return this.webhooks.find({ projectId }, { sort: { createdAt: 1 } });
  }

  count(projectId: string): Promise<number> {
    return this.webhooks.count({ projectId });
  }

  /** The endpoints that take deliveries now. */
  enabledOf(projectId: string): Promise<StoredWebhook[]> {
    return this.webhooks.find({ projectId, enabled: true });
  }

  update(projectId: string, webhookId: string, set: Partial<StoredWebhook>): Promise<StoredWebhook | null> {
    return this.webhooks.findOneAndUpdate({ _id: webhookId, projectId }, { $set: set });
  }

  async delete(projectId: string, webhookId: string): Promise<boolean> {
    return (await this.webhooks.deleteOne({ _id: webhookId, projectId })) > 0;
  }

  /** Everything of a deleted project; answers how many rows went. */
  deleteForProject(projectId: string): Promise<number> {
    return this.webhooks.deleteMany({ projectId });
  }
}
