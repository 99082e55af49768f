import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildApp, isAlive, printed, startChildApp } from '../support/child-app';
import { artifactPath, browserSuiteTitle, chromiumAvailable, launchChromium } from '../support/chromium';
import { type StaticSite, startStaticSite } from '../support/static-site';

const available = chromiumAvailable();

const WIDGET_JS = join(import.meta.dirname, '..', '..', 'packages', 'widget', 'dist', 'widget.js');

const widget = (page: Page) => page.locator('palaver-widget');
const launcher = (page: Page) => widget(page).locator('.palaver-launcher');
const panel = (page: Page) => widget(page).getByRole('dialog');
const replies = (page: Page) => panel(page).locator('.palaver-message--assistant[data-status="complete"]:not(.palaver-welcome)');

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Kills the app's own node process and checks that it is gone. */
const killApp = async (app: ChildApp) => {
  await app.kill('SIGKILL');
  expect(isAlive(app.process.pid!)).toBe(false);
  await expect(fetch(`${app.url}/healthz`)).rejects.toThrow();
};

describe.runIf(available)(
  browserSuiteTitle('the widget while its chat service is down (kill -9 of `pnpm start`)', available),
  { timeout: 180_000 },
  () => {
    let dataDir: string;
    let env: Record<string, string>;
    let app: ChildApp | null = null;
    let site: StaticSite;
    let browser: Browser;
    const pages: Record<string, { type: string; body: string }> = {};

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'palaver-widget-outage-'));
      // One port for every start: the page keeps the address it was given.
      env = { DATA_DIR: dataDir, SEED_DEMO: 'true', PORT: String(await freePort()) };
      app = await startChildApp(env);
      const apiKey = printed(app, 'Publishable key');
      site = await startStaticSite(pages);
      // widget.js from the site (a CDN, say), so that the page loads while the service is down.
      pages['/widget.js'] = { type: 'text/javascript', body: readFileSync(WIDGET_JS, 'utf8') };
      pages['/shop'] = {
        type: 'text/html',
        body: `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>
<script src="/widget.js" data-key="${apiKey}" data-base-url="${app.url}" async></script></body></html>`,
      };
      browser = await launchChromium();
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await site?.close();
      if (app && isAlive(app.process.pid!)) await app.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    it('waits for the service without a launcher, says it cannot reach the service (not that the visitor is offline), and recovers', async () => {
      await killApp(app!);
      const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
      const page = await context.newPage();
      const refused = page.waitForEvent('requestfailed', (request) => request.url().includes('/v2/projects/current'));
      await page.goto(`${site.origin}/shop`);
      await refused;
      // A chat that cannot reach its service shows no launcher yet.
      expect(await launcher(page).count()).toBe(0);

      app = await startChildApp(env);
      // It keeps trying, and appears once the service answers.
      await launcher(page).waitFor({ timeout: 30_000 });
      await launcher(page).click();
      const input = panel(page).getByRole('textbox', { name: 'Message' });
      await input.fill('What are your opening hours?');
      await input.press('Enter');
      await expect.poll(() => replies(page).count(), { timeout: 20_000 }).toBe(1);

      await killApp(app);
      await input.fill('Are you still there?');
      await input.press('Enter');
      const alert = panel(page).getByRole('alert');
      await alert.waitFor();
      expect(await page.evaluate(() => navigator.onLine)).toBe(true);
      expect(await alert.textContent()).toContain("Can't reach the chat service, retrying…");
      expect(await alert.textContent()).not.toMatch(/offline/i);
      expect(await input.inputValue()).toBe('Are you still there?');
      await page.screenshot({ path: await artifactPath('widget-service-down.png') });

      app = await startChildApp(env);
      // Back: the notice goes away by itself and the message can be sent.
      await alert.waitFor({ state: 'detached', timeout: 30_000 });
      await input.press('Enter');
      await expect.poll(() => replies(page).count(), { timeout: 20_000 }).toBe(2);
      expect(await panel(page).locator('.palaver-message--user').count()).toBe(2);
      await context.close();
    });
  },
);
