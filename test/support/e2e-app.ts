import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedApp, startEmbeddedApp } from '@palaver/launcher';
import { type ChatModel, type Clock, type Config, createInfrastructure, loadConfig } from '@palaver/platform';
import { useFixture } from './fixture';

export interface E2eApp {
  app: EmbeddedApp;
  url: string;
  dataDir: string;
  admin: AdminClient;
  /** Stops the app; `keepData` leaves DATA_DIR for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** The whole product, started in this process on a free port with a fresh DATA_DIR. */
export const startE2eApp = async (
  overrides: Partial<Record<keyof Config, string>> = {},
  options: { dataDir?: string; chatModel?: ChatModel; clock?: Clock } = {},
): Promise<E2eApp> => {
  const dataDir = options.dataDir;
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'palaver-e2e-')));
  const config = loadConfig({ PORT: '0', DATA_DIR: dir, SEED_DEMO: 'false', ADMIN_TOKEN: 'test-admin-token', ...overrides });
  const infra = await createInfrastructure(config, options.clock ? { clock: options.clock } : {});
  const app = await startEmbeddedApp(config, options.chatModel ? { ...infra, chatModel: options.chatModel } : infra);
  return {
    app,
    url: app.url,
    dataDir: dir,
    admin: new AdminClient(app.url, app.adminToken),
    async stop(options = {}) {
      await app.close();
      if (!options.keepData) await rm(dir, { recursive: true, force: true });
    },
  };
};

/**
 * The app of a describe block: started before its tests (`startE2eApp` with these arguments),
 * stopped after them. Read it inside tests and hooks only.
 */
export const useE2eApp = (...args: Parameters<typeof startE2eApp>): E2eApp =>
  useFixture(
    () => startE2eApp(...args),
    (e2e) => e2e.stop(),
  );

/** A project's keys, as AdminClient.createProject makes them. */
export type ProjectKeys = Awaited<ReturnType<AdminClient['createProject']>>;

/** A project on `e2e`, made before the tests of a describe block (see AdminClient.createProject). */
export const useProject = (e2e: E2eApp, options?: Parameters<AdminClient['createProject']>[0]): ProjectKeys =>
  useFixture(() => e2e.admin.createProject(options));

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export const http = async <T = any>(
  url: string,
  init: { method?: string; body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> => {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
};

export class AdminClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const result = await http<T>(`${this.base}/admin/v1${path}`, { method, body, token: this.token });
    if (result.status >= 300) throw new Error(`${method} ${path} -> ${result.status}: ${result.text}`);
    return result.body;
  }

  /** A project with a publishable key (any origin unless given) and a private key. */
  async createProject(options: { plan?: string; limits?: object; allowedOrigins?: string[]; name?: string } = {}) {
    const project = await this.call('POST', '/projects', {
      name: options.name ?? 'Test project',
      ...(options.plan ? { plan: options.plan } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    const publishable = await this.call('POST', `/projects/${project.id}/keys`, {
      type: 'publishable',
      name: 'widget',
      assistantId: project.defaultAssistantId,
      allowedOrigins: options.allowedOrigins ?? [],
    });
    const privateKey = await this.call('POST', `/projects/${project.id}/keys`, { type: 'private', name: 'backend' });
    return {
      project,
      publishableKey: publishable.key as string,
      publishableKeyId: publishable.id as string,
      privateKey: privateKey.key as string,
    };
  }
}

/** A visitor with a session on the given key. */
export const newVisitor = async (url: string, apiKey: string, saVid = `device-${Math.random().toString(36).slice(2)}`) => {
  const result = await http(`${url}/v2/identity/init`, { body: { apiKey, saVid } });
  if (result.status !== 201 && result.status !== 200) throw new Error(`init -> ${result.status}: ${result.text}`);
  return { token: result.body.sessionToken as string, visitor: result.body.visitor, saVid };
};

/** A new visitor on the given key with a conversation of theirs. */
export const newConversation = async (url: string, apiKey: string, saVid?: string) => {
  const visitor = await newVisitor(url, apiKey, saVid);
  const conversationId: string = (await http(`${url}/v2/conversations`, { body: {}, token: visitor.token })).body.id;
  return { ...visitor, conversationId };
};
