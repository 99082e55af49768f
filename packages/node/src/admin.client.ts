import type {
  AdminConversation,
  AdminConversationFilter,
  AssistantRecord,
  CreateAssistantInput,
  CreatedIdentitySecret,
  CreatedKey,
  CreateKeyInput,
  CreateProjectInput,
  DocumentInput,
  DocumentRecord,
  KeyRecord,
  ProjectRecord,
  Qna,
  QnaInput,
  Source,
  SourceInput,
  SourcePage,
  SourcePageStatus,
  UpdateAssistantInput,
  UpdateDocumentInput,
  UpdateProjectInput,
  UpdateQnaInput,
  UpdateSourceInput,
  UpdateWebhookInput,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookInput,
  WebhookWithSecret,
} from './contract-types';
import { HttpApi, segment } from './http';

export interface PalaverAdminOptions {
  /** The gateway's address, e.g. `https://chat.example.com`. */
  baseUrl: string;
  /** The deployment's `ADMIN_TOKEN`. */
  adminToken: string;
  fetch?: typeof fetch;
}

/** A list with its paging (`limit`, `offset`, `total`). */
export interface PagedList<T> {
  object: 'list';
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface ListWindow {
  /** 1 to 100. */
  limit?: number;
  offset?: number;
}

/**
 * The admin API (`/admin/v1`, the dashboard's backend): projects, assistants, keys, knowledge
 * (Q&A entries and documents) and the conversations of a project.
 */
export class PalaverAdmin {
  private readonly http: HttpApi;

  constructor(options: PalaverAdminOptions) {
    this.http = new HttpApi(
      `${options.baseUrl.replace(/\/+$/, '')}/admin/v1`,
      { authorization: `Bearer ${options.adminToken}` },
      options.fetch,
    );
  }

  readonly projects = {
    create: (input: CreateProjectInput): Promise<ProjectRecord> => this.http.json('POST', '/projects', { body: input }),
    list: async (): Promise<ProjectRecord[]> => (await this.http.json<{ data: ProjectRecord[] }>('GET', '/projects')).data,
    get: (projectId: string): Promise<ProjectRecord> => this.http.json('GET', `/projects/${segment(projectId)}`),
    /** `chatWidgetConfig` and `limits` merge field by field, `quickPrompts` replace. */
    update: (projectId: string, input: UpdateProjectInput): Promise<ProjectRecord> =>
      this.http.json('PATCH', `/projects/${segment(projectId)}`, { body: input }),
  };

  readonly assistants = {
    create: (projectId: string, input: CreateAssistantInput): Promise<AssistantRecord> =>
      this.http.json('POST', `/projects/${segment(projectId)}/assistants`, { body: input }),
    list: async (projectId: string): Promise<AssistantRecord[]> =>
      (await this.http.json<{ data: AssistantRecord[] }>('GET', `/projects/${segment(projectId)}/assistants`)).data,
    update: (projectId: string, assistantId: string, input: UpdateAssistantInput): Promise<AssistantRecord> =>
      this.http.json('PATCH', `/projects/${segment(projectId)}/assistants/${segment(assistantId)}`, { body: input }),
  };

  readonly keys = {
    /** The answer's `key` is the only showing of a private key. */
    create: (projectId: string, input: CreateKeyInput): Promise<CreatedKey> =>
      this.http.json('POST', `/projects/${segment(projectId)}/keys`, { body: input }),
    list: async (projectId: string): Promise<KeyRecord[]> =>
      (await this.http.json<{ data: KeyRecord[] }>('GET', `/projects/${segment(projectId)}/keys`)).data,
    /** The key and its sessions stop at once. */
    revoke: (projectId: string, keyId: string): Promise<KeyRecord> =>
      this.http.json('DELETE', `/projects/${segment(projectId)}/keys/${segment(keyId)}`),
  };

  readonly qnas = {
    list: (projectId: string, query: ListWindow & { query?: string } = {}): Promise<PagedList<Qna>> =>
      this.http.json('GET', `/projects/${segment(projectId)}/qnas`, { query: { ...query } }),
    create: (projectId: string, input: QnaInput): Promise<Qna> =>
      this.http.json('POST', `/projects/${segment(projectId)}/qnas`, { body: input }),
    update: (projectId: string, qnaId: string, input: UpdateQnaInput): Promise<Qna> =>
      this.http.json('PATCH', `/projects/${segment(projectId)}/qnas/${segment(qnaId)}`, { body: input }),
    delete: async (projectId: string, qnaId: string): Promise<void> => {
      await this.http.send('DELETE', `/projects/${segment(projectId)}/qnas/${segment(qnaId)}`);
    },
  };

  readonly documents = {
    /** The document is searchable when the call returns. */
    create: (projectId: string, input: DocumentInput): Promise<DocumentRecord> =>
      this.http.json('POST', `/projects/${segment(projectId)}/documents`, { body: input }),
    list: (projectId: string, query: ListWindow = {}): Promise<PagedList<DocumentRecord>> =>
      this.http.json('GET', `/projects/${segment(projectId)}/documents`, { query: { ...query } }),
    get: (projectId: string, documentId: string): Promise<DocumentRecord> =>
      this.http.json('GET', `/projects/${segment(projectId)}/documents/${segment(documentId)}`),
    update: (projectId: string, documentId: string, input: UpdateDocumentInput): Promise<DocumentRecord> =>
      this.http.json('PATCH', `/projects/${segment(projectId)}/documents/${segment(documentId)}`, { body: input }),
    delete: async (projectId: string, documentId: string): Promise<void> => {
      await this.http.send('DELETE', `/projects/${segment(projectId)}/documents/${segment(documentId)}`);
    },
  };

  readonly sources = {
    /** A website or sitemap to crawl; it answers `status: 'queued'` and crawls in the background. */
    create: (projectId: string, input: SourceInput): Promise<Source> =>
      this.http.json('POST', `/projects/${segment(projectId)}/sources`, { body: input }),
    list: (projectId: string, query: ListWindow = {}): Promise<PagedList<Source>> =>
      this.http.json('GET', `/projects/${segment(projectId)}/sources`, { query: { ...query } }),
    /** The source with its live page counters. */
    get: (projectId: string, sourceId: string): Promise<Source> =>
      this.http.json('GET', `/projects/${segment(projectId)}/sources/${segment(sourceId)}`),
    pages: (projectId: string, sourceId: string, query: ListWindow & { status?: SourcePageStatus } = {}): Promise<PagedList<SourcePage>> =>
      this.http.json('GET', `/projects/${segment(projectId)}/sources/${segment(sourceId)}/pages`, { query: { ...query } }),
    /** Crawls again now: changed pages replace their documents, gone ones lose them. */
    sync: (projectId: string, sourceId: string): Promise<Source> =>
      this.http.json('POST', `/projects/${segment(projectId)}/sources/${segment(sourceId)}/sync`),
    update: (projectId: string, sourceId: string, input: UpdateSourceInput): Promise<Source> =>
      this.http.json('PATCH', `/projects/${segment(projectId)}/sources/${segment(sourceId)}`, { body: input }),
    /** Removes the source and every document it made. */
    delete: async (projectId: string, sourceId: string): Promise<void> => {
      await this.http.send('DELETE', `/projects/${segment(projectId)}/sources/${segment(sourceId)}`);
    },
  };

  /** Signed webhook endpoints (verify deliveries with `verifyWebhook`) and their deliveries. */
  readonly webhooks = {
    /** Answers the endpoint's `whsec_…` secret: the only time it is shown. */
    create: (projectId: string, input: WebhookInput): Promise<WebhookWithSecret> =>
      this.http.json('POST', `/projects/${segment(projectId)}/webhooks`, { body: input }),
    list: (projectId: string): Promise<{ object: 'list'; data: Webhook[] }> =>
      this.http.json('GET', `/projects/${segment(projectId)}/webhooks`),
    get: (projectId: string, webhookId: string): Promise<Webhook> =>
      this.http.json('GET', `/projects/${segment(projectId)}/webhooks/${segment(webhookId)}`),
    update: (projectId: string, webhookId: string, input: UpdateWebhookInput): Promise<Webhook> =>
      this.http.json('PATCH', `/projects/${segment(projectId)}/webhooks/${segment(webhookId)}`, { body: input }),
    delete: async (projectId: string, webhookId: string): Promise<void> => {
      await this.http.send('DELETE', `/projects/${segment(projectId)}/webhooks/${segment(webhookId)}`);
    },
    rotateSecret: (projectId: string, webhookId: string): Promise<WebhookWithSecret> =>
      this.http.json('POST', `/projects/${segment(projectId)}/webhooks/${segment(webhookId)}/rotate-secret`),
    /** Sends a `webhook.test` event to the endpoint now. */
    sendTest: (projectId: string, webhookId: string): Promise<WebhookDelivery> =>
      this.http.json('POST', `/projects/${segment(projectId)}/webhooks/${segment(webhookId)}/test`),
    deliveries: (
      projectId: string,
      webhookId: string,
      query: ListWindow & { status?: WebhookDeliveryStatus } = {},
    ): Promise<PagedList<WebhookDelivery>> =>
      this.http.json('GET', `/projects/${segment(projectId)}/webhooks/${segment(webhookId)}/deliveries`, { query: { ...query } }),
    /** Resends a delivery now (one more attempt, the same `webhook-id`). */
    retryDelivery: (projectId: string, webhookId: string, deliveryId: string): Promise<WebhookDelivery> =>
      this.http.json('POST', `/projects/${segment(projectId)}/webhooks/${segment(webhookId)}/deliveries/${segment(deliveryId)}/retry`),
  };

  /** Creates or rotates the project's identity secret (answered only here; the previous one verifies 24 h more). */
  readonly identitySecret = {
    rotate: (projectId: string): Promise<CreatedIdentitySecret> =>
      this.http.json('POST', `/projects/${segment(projectId)}/identity-secret`),
  };

  readonly conversations = {
    /** Every conversation of the project, latest interaction first (`orderDir: 'asc'` for oldest). */
    list: (
      projectId: string,
      query: AdminConversationFilter & ListWindow & { orderDir?: 'asc' | 'desc' } = {},
    ): Promise<PagedList<AdminConversation>> =>
      this.http.json('GET', `/projects/${segment(projectId)}/conversations`, { query: { ...query } }),
    /** The conversation with its `messages`. */
    get: (projectId: string, conversationId: string): Promise<AdminConversation> =>
      this.http.json('GET', `/projects/${segment(projectId)}/conversations/${segment(conversationId)}`),
  };
}
