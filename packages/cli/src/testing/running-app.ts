import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedApp, startEmbeddedApp } from '@palaver/launcher';
import { createInfrastructure, loadConfig } from '@palaver/platform';

export const ADMIN_TOKEN = 'cli-test-admin-token';

export interface RunningApp {
  url: string;
  app: EmbeddedApp;
  /** A folder of its own for the files a test imports; removed with the app. */
  scratchDir: string;
  /** An admin API call that must succeed; answers the parsed body. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** A new project and a publishable key for /v2/search. */
  createProject(): Promise<{ projectId: string; publishableKey: string }>;
  stop(): Promise<void>;
}

/** The whole product in this process (embedded mode) on a free port with a fresh DATA_DIR. */
export const startRunningApp = async (): Promise<RunningApp> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'palaver-cli-app-'));
  const scratchDir = await mkdtemp(join(tmpdir(), 'palaver-cli-scratch-'));
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, SEED_DEMO: 'false', ADMIN_TOKEN });
  const app = await startEmbeddedApp(config, await createInfrastructure(config));
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${app.url}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} -> ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    url: app.url,
    app,
    scratchDir,
    admin,
    async createProject() {
      const project = await admin<{ id: string; defaultAssistantId: string }>('POST', '/projects', { name: 'Import target' });
      const key = await admin<{ key: string }>('POST', `/projects/${project.id}/keys`, {
        type: 'publishable',
        name: 'widget',
        assistantId: project.defaultAssistantId,
        allowedOrigins: [],
      });
      return { projectId: project.id, publishableKey: key.key };
    },
    async stop() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
      await rm(scratchDir, { recursive: true, force: true });
    },
  };
};
