// The SDKs as a developer outside this repository gets them: `pnpm pack` of @palaver/client and
// @palaver/node, `npm install` of the tarballs (with ai, @ai-sdk/react, react and vite from the
// registry) into an empty folder, a type-check and a vite build of a React page using useChat with
// palaverTransport, that page driven in Chromium against the running product, and a Node backend
// script using @palaver/node against the same product.
import { execFile, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuiteTitle, chromiumAvailable, launchChromium } from './support/chromium';
import { type E2eApp, http, startE2eApp } from './support/e2e-app';
import { RecordingChatModel } from './support/recording-chat-model';
import { type StaticSite, startStaticSite } from './support/static-site';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const APP_FIXTURE = join(import.meta.dirname, 'sdk-install', 'app');
const PACKAGES = ['client', 'node'] as const;
// What a site installs next to the SDKs, at the majors the SDKs are built against.
const REGISTRY_DEPENDENCIES = [
  'ai@^6.0.0',
  '@ai-sdk/react@^3.0.0',
  'react@^19.0.0',
  'react-dom@^19.0.0',
  '@types/react@^19.0.0',
  '@types/react-dom@^19.0.0',
  'vite@^7.3.0',
  'typescript@~5.9.3',
  '@types/node@^20.19.0',
];

/** npm's registry answers: without it nothing can be installed, so the suite skips (fails under REQUIRE_INFRA=1). */
const registryReachable = (): boolean => {
  const ping = spawnSync('npm', ['ping'], { timeout: 30_000, stdio: 'ignore' });
  const reachable = ping.status === 0;
  if (!reachable && process.env.REQUIRE_INFRA === '1') throw new Error('npm registry unreachable (npm ping failed) and REQUIRE_INFRA=1');
  return reachable;
};

const browser = chromiumAvailable();
const registry = browser && registryReachable();
const title = !browser
  ? browserSuiteTitle('the SDKs installed outside the workspace', false)
  : registry
    ? 'the SDKs installed outside the workspace (packed tarballs, npm install, React page in Chromium, Node backend)'
    : 'the SDKs installed outside the workspace (npm registry unreachable: skipped)';

/** The child's environment without the variables a package manager running this test sets for its scripts. */
const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key))),
  ...extra,
});

const sh = async (command: string, args: string[], cwd: string, env: Record<string, string> = {}, timeout = 240_000) => {
  try {
    return await run(command, args, { cwd, env: cleanEnv(env), timeout, maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
};

const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

describe.runIf(registry)(title, { timeout: 120_000 }, () => {
  let work: string;
  let app: string;
  const tarballs: Record<(typeof PACKAGES)[number], string> = { client: '', node: '' };
  const unpacked: Record<(typeof PACKAGES)[number], string> = { client: '', node: '' };
  let e2e: E2eApp;
  let site: StaticSite;
  let chromium: Browser;
  const model = new RecordingChatModel();
  const pages: Record<string, { type: string; body: string }> = {};

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'palaver-sdk-install-'));
    // 1. Pack each SDK as it would be published (its prepack builds dist/).
    for (const name of PACKAGES) {
      const destination = join(work, 'packs', name);
      await mkdir(destination, { recursive: true });
      await sh('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', destination], join(ROOT, 'packages', name));
      const [tarball] = (await readdir(destination)).filter((file) => file.endsWith('.tgz'));
      if (!tarball) throw new Error(`pnpm pack made no tarball for ${name}`);
      tarballs[name] = join(destination, tarball);
      unpacked[name] = join(work, 'unpacked', name);
      await mkdir(unpacked[name], { recursive: true });
      await sh('tar', ['-xzf', tarballs[name], '-C', unpacked[name]], work);
    }
    // 2. A new app folder: the page, the backend script, their tsconfigs; the SDKs from the tarballs.
    app = join(work, 'app');
    await cp(APP_FIXTURE, app, { recursive: true });
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'sdk-install-check', private: true, type: 'module' }, null, 2));
    await sh(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        tarballs.client,
        tarballs.node,
        ...REGISTRY_DEPENDENCIES,
      ],
      app,
      {},
      420_000,
    );
    // 3. The product, and the "site" serving the built page from another origin.
    site = await startStaticSite(pages);
    e2e = await startE2eApp({}, { chatModel: model });
    chromium = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    await chromium?.close();
    await site?.close();
    await e2e?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the tarballs: a publishable manifest (no workspace:, exports with types, files, sideEffects) and declarations that stand alone', async () => {
    for (const name of PACKAGES) {
      const root = join(unpacked[name], 'package');
      const raw = await readFile(join(root, 'package.json'), 'utf8');
      const manifest = JSON.parse(raw);
      expect(raw).not.toContain('workspace:');
      expect(raw).not.toContain('@palaver/contracts');
      expect(manifest).toMatchObject({
        name: `@palaver/${name}`,
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        type: 'module',
        sideEffects: false,
        files: expect.arrayContaining(['dist']),
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      });
      expect(manifest.private).toBeUndefined();
      const files = (await filesUnder(root)).map((file) => relative(root, file));
      expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']));
      expect(files.filter((file) => file.startsWith('src/') || file.endsWith('.spec.ts'))).toEqual([]);
      for (const file of files.filter((f) => f.endsWith('.d.ts') || f.endsWith('.js'))) {
        const text = await readFile(join(root, file), 'utf8');
        expect(text, file).not.toMatch(/(from\s+|import\()['"](@palaver\/|zod)/);
      }
    }
    const client = JSON.parse(await readFile(join(unpacked.client, 'package', 'package.json'), 'utf8'));
    expect(client.peerDependencies).toEqual({ ai: expect.any(String) });
  });

  it('a Node backend with @palaver/node: type-checks, adds a Q&A, creates a customer, streams a chat, lists the chats, signs a user token the product accepts', async () => {
    await sh(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.node.json'], app);
    const { project, privateKey, publishableKey } = await e2e.admin.createProject({ name: 'Backend shop' });
    const identitySecret = (await e2e.admin.call('POST', `/projects/${project.id}/identity-secret`)).secret as string;
    const { stdout } = await sh(process.execPath, ['backend-dist/backend.js'], app, {
      PALAVER_URL: e2e.url,
      PALAVER_ADMIN_TOKEN: e2e.app.adminToken,
      PALAVER_SERVICE_KEY: privateKey,
      PALAVER_PROJECT_ID: project.id,
      PALAVER_IDENTITY_SECRET: identitySecret,
    });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(seen.projectName).toBe('Backend shop');
    expect(seen.customer).toMatchObject({ appUserId: 'sdk-user-1', name: 'Ann', email: 'ann@example.com', projectId: project.id });
    expect(seen.replyText).toMatch(/^Reply \d+ to "Where is my parcel\?"$/);
    expect(seen.chatIds).toContain(seen.chatId);
    expect(seen.messageRoles).toEqual(['user', 'assistant']);
    expect(seen.qnaTitles).toEqual(['Do you ship abroad?']);

    // The token: HS256 over header.payload with the secret, sub the customer, exp ten minutes on.
    const [header, payload, signature] = (seen.userToken as string).split('.');
    const expected = createHmac('sha256', identitySecret).update(`${header}.${payload}`).digest('base64url');
    expect(signature).toBe(expected);
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    expect(claims).toMatchObject({ sub: 'sdk-user-1', name: 'Ann' });
    expect(claims.exp - claims.iat).toBe(600);

    // The product takes it: the session is the customer's, with the chat the backend started.
    const init = await http(`${e2e.url}/v2/identity/init`, {
      body: { apiKey: publishableKey, saVid: 'browser-1', userToken: seen.userToken },
    });
    expect(init.status).toBe(200);
    expect(init.body.visitor).toMatchObject({ type: 'identified', externalId: 'sdk-user-1' });
    const chats = await http(`${e2e.url}/v2/conversations`, { token: init.body.sessionToken });
    expect(chats.body.data.map((c: { id: string }) => c.id)).toContain(seen.chatId);
  });

  it('@palaver/client in Node: the v2 visitor client from the tarball, imported and required', async () => {
    const { publishableKey } = await e2e.admin.createProject({ name: 'Node visitor shop' });
    const script = `
      import { createRequire } from 'node:module';
      import { PalaverClient } from '@palaver/client';
      const required = createRequire(import.meta.url)('@palaver/client');
      const client = new PalaverClient({ baseUrl: process.env.PALAVER_URL, apiKey: process.env.PALAVER_KEY, deviceId: 'node-device-1' });
      const { id } = await client.createConversation();
      const reply = await client.sendMessage(id, { content: 'Hello from Node' });
      console.log(JSON.stringify({ same: required.PalaverClient === PalaverClient, type: reply.type, text: reply.result.steps[0].content[0].text }));
    `;
    const { stdout } = await sh(process.execPath, ['--input-type=module', '-e', script], app, {
      PALAVER_URL: e2e.url,
      PALAVER_KEY: publishableKey,
    });
    expect(JSON.parse(stdout.trim())).toEqual({
      same: true,
      type: 'reply',
      text: expect.stringMatching(/^Reply \d+ to "Hello from Node"$/),
    });
  });

  it('a React page with useChat({ transport: palaverTransport(...) }): type-checks, builds with vite, streams, likes by the stored id, shows its history after a reload', async () => {
    await sh(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], app);
    await sh(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app);
    const dist = join(app, 'dist');
    for (const file of await filesUnder(dist)) {
      const path = `/${relative(dist, file)}`;
      pages[path === '/index.html' ? '/' : path] = {
        type: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        body: await readFile(file, 'utf8'),
      };
    }
    const { project, publishableKey } = await e2e.admin.createProject({ name: 'React shop', allowedOrigins: [site.origin] });
    const context = await chromium.newContext();
    const page: Page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${site.origin}/?api=${encodeURIComponent(e2e.url)}&key=${encodeURIComponent(publishableKey)}`);

    const ask = async (text: string) => {
      await page.getByLabel('Message').fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
    };
    const assistant = page.locator('li[data-role="assistant"]');
    await ask('What are your opening hours?');
    await expect
      .poll(() => assistant.first().locator('.text').textContent(), { timeout: 30_000 })
      .toMatch(/^Reply \d+ to "What are your opening hours\?"$/);
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toBe('ready');

    // The message id on the page is the stored one: feedback by it lands on the stored message.
    const messageId = await assistant.first().getAttribute('data-id');
    const [conversation] = (await e2e.admin.call('GET', `/projects/${project.id}/conversations`)).data;
    const stored = await e2e.admin.call('GET', `/projects/${project.id}/conversations/${conversation.id}`);
    expect(stored.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(messageId).toBe(stored.messages[1].id);
    await assistant.first().getByRole('button', { name: 'Like' }).click();
    await expect
      .poll(() => assistant.first().getByRole('button', { name: 'Like' }).getAttribute('aria-pressed'), { timeout: 10_000 })
      .toBe('true');
    await expect
      .poll(async () => (await e2e.admin.call('GET', `/projects/${project.id}/conversations/${conversation.id}`)).messages[1], {
        timeout: 10_000,
      })
      .toMatchObject({ id: messageId, feedback: 'like' });

    // A reload shows the history from the API, with the stored ids, and the chat goes on in the same conversation.
    await page.reload();
    await expect
      .poll(() => page.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-id'))), { timeout: 15_000 })
      .toEqual(stored.messages.map((m: { id: string }) => m.id));
    await ask('And on Sunday?');
    await expect
      .poll(() => assistant.nth(1).locator('.text').textContent(), { timeout: 30_000 })
      .toMatch(/^Reply \d+ to "And on Sunday\?"$/);
    const after = await e2e.admin.call('GET', `/projects/${project.id}/conversations`);
    expect(after.data.map((c: { id: string }) => c.id)).toEqual([conversation.id]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
