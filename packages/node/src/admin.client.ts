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
import { HttpApi, type Query, segment } from './http';

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
 * The calls on one kind of item a project owns, at `/projects/:projectId/<kind>[/:itemId]`:
 * create, list (paged; `Filter` narrows it), update and delete.
 */
export class ProjectItems<Item, Input, Update, Filter = object> {
  constructor(
    protected readonly http: HttpApi,
    private readonly kind: string,
  ) {}

  protected path(projectId: string, itemId?: string): string {
    return `/projects/${segment(projectId)}/${this.kind}${itemId === undefined ? '' : `/${segment(itemId)}`}`;
  }

  readonly create = (projectId: string, input: Input): Promise<Item> => this.http.json('POST', this.path(projectId), { body: input });

  // The window and the filters are flat fields of scalars, which is what a query string takes.
  readonly list = (projectId: string, query?: ListWindow & Filter): Promise<PagedList<Item>> =>
    this.http.json('GET', this.path(projectId), { query: { ...(query as Query | undefined) } });

  readonly update = (projectId: string, itemId: string, input: Update): Promise<Item> =>
    this.http.json('PATCH', this.path(projectId, itemId), { body: input });

  readonly delete = async (projectId: string, itemId: string): Promise<void> => {
    await this.http.send('DELETE', this.path(projectId, itemId));
  };
}

/** The same, and `get` of one item. */
export class ReadableProjectItems<Item, Input, Update, Filter = object> extends ProjectItems<Item, Input, Update, Filter> {
  readonly get = (projectId: string, itemId: string): Promise<Item> => this.http.json('GET', this.path(projectId, itemId));
}

/**
 * Websites or sitemaps to crawl: `create` answers `status: 'queued'` and crawls in the background,
 * `get` answers the live page counters, `delete` removes every document the source made.
 */
export class SourceCalls extends ReadableProjectItems<Source, SourceInput, UpdateSourceInput> {
  readonly pages = (
    projectId: string,
    sourceId: string,
    query: ListWindow & { status?: SourcePageStatus } = {},
  ): Promise<PagedList<SourcePage>> => this.http.json('GET', `${this.path(projectId, sourceId)}/pages`, { query: { ...query } });

  /** Crawls again now: changed pages replace their documents, gone ones lose them. */
  readonly sync = (projectId: string, sourceId: string): Promise<Source> =>
    this.http.json('POST', `${this.path(projectId, sourceId)}/sync`);
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
    this.qnas = new ProjectItems(this.http, 'qnas');
    this.documents = new ReadableProjectItems(this.http, 'documents');
    this.sources = new SourceCalls(this.http, 'sources');
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

  /** Q&A entries; `list` takes a `query` to search them. */
  readonly qnas: ProjectItems<Qna, QnaInput, UpdateQnaInput, { query?: string }>;

  /** A created document is searchable when the call returns. */
  readonly documents: ReadableProjectItems<DocumentRecord, DocumentInput, UpdateDocumentInput>;

  readonly sources: SourceCalls;

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
