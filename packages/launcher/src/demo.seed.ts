import { constants } from 'node:fs';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN_TOKEN_ACTOR, IdentityMessages, SearchMessages } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import { z } from 'zod';
import { DEMO_DOCUMENTS, DEMO_QNAS } from './demo.content';

export const DemoCredentials = z.object({
  projectId: z.string(),
  publishableKey: z.string(),
  privateKey: z.string(),
});
export type DemoCredentials = z.infer<typeof DemoCredentials>;

/** Where the demo's keys are kept: keys are stored only hashed, this is the one copy that can be shown again. */
export const demoCredentialsPath = (dataDir: string): string => join(dataDir, 'demo-credentials.json');

/**
 * On first boot (no project yet), creates the demo project with Q&A, documents and both keys,
 * through the same service messages as the admin API. Keys are stored only hashed, so the demo's
 * own copy is kept in DATA_DIR/demo-credentials.json (mode 600) to print them on every boot.
 * DATA_DIR must be writable before anything is created: a project whose keys could not be kept
 * would make every later run find "a project" and seed nothing, with the keys lost.
 */
export const seedDemo = async (services: ServiceClient, dataDir: string): Promise<DemoCredentials | null> => {
  const path = demoCredentialsPath(dataDir);
  const saved = await readFile(path, 'utf8').then(
    (text) => DemoCredentials.parse(JSON.parse(text)),
    () => null,
  );
  if (saved) return saved;
  const { data: projects } = await services.send(IdentityMessages.listProjects, {});
  if (projects.length > 0) return null;
  await writableDir(dataDir);

  const project = await services.send(IdentityMessages.createProject, {
    name: 'Demo Shop',
    description: 'An online electronics shop: the demo knowledge base of a fresh install.',
    plan: 'enterprise',
    chatWidgetConfig: { displayName: 'Demo Shop Assistant', welcomeMessage: 'Hi! Ask me about orders, shipping or returns.' },
    quickPrompts: [
      { title: 'Opening hours', prompt: 'What are your opening hours?' },
      { title: 'Returns', prompt: 'How do I return an item?' },
    ],
    limits: { messagesPerMinute: 60, monthlyMessages: 10_000 },
  });
  for (const body of DEMO_QNAS) await services.send(SearchMessages.createQna, { projectId: project.id, actor: ADMIN_TOKEN_ACTOR, body });
  for (const body of DEMO_DOCUMENTS) await services.send(SearchMessages.createDocument, { projectId: project.id, body });

  const assistantId = project.defaultAssistantId!;
  const publishable = await services.send(IdentityMessages.createKey, {
    projectId: project.id,
    body: { type: 'publishable', name: 'Demo widget', assistantId, allowedOrigins: ['*'] },
  });
  const privateKey = await services.send(IdentityMessages.createKey, {
    projectId: project.id,
    body: { type: 'private', name: 'Demo backend' },
  });
  const credentials = { projectId: project.id, publishableKey: publishable.key, privateKey: privateKey.key };
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
};

/** Creates `dir` if needed and checks that this process may write in it, with a message that says what to fix. */
const writableDir = async (dir: string): Promise<void> => {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(
      `cannot write the demo's keys in DATA_DIR (${dir}): ${reason}. Make it writable by this process (uid ${process.getuid?.() ?? '?'}); nothing was seeded.`,
    );
  }
};
