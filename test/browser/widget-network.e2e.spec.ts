import type { BrowserContext, ConsoleMessage, Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { GatedChatModel } from '../support/gated-chat-model';
import { useWidgetShop } from './support/widget-shop';

const available = chromiumAvailable();

const hostPage = (appUrl: string, key: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Slow shop</title></head>
<body><h1>Slow shop</h1><script src="${appUrl}/widget.js" data-key="${key}" async></script></body></html>`;

const widget = (page: Page) => page.locator('palaver-widget');
const launcher = (page: Page) => widget(page).locator('.palaver-launcher');
const panel = (page: Page) => widget(page).getByRole('dialog');
/** The assistant's messages, without the welcome message. */
const replies = (page: Page) => panel(page).locator('.palaver-message--assistant:not(.palaver-welcome)');

/** A promise with its resolve function, for a route to wait on. */
const signal = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

const isMessagePost = (route: Route) =>
  route.request().method() === 'POST' && new URL(route.request().url()).pathname.endsWith('/messages');

describe.runIf(available)(
  browserSuiteTitle('the widget on a slow network, and on a site its key does not allow', available),
  { timeout: 60_000 },
  () => {
    let context: BrowserContext;
    const gate = new GatedChatModel();
    const pages: Record<string, { type: string; body: string }> = {};
    let projectId: string;
    let revokedKeyId: string;

    const { e2e, site, browser, shop } = useWidgetShop({ name: 'Slow shop', pages, chatModel: gate });
    beforeAll(async () => {
      const { project, publishableKey } = shop.keys;
      projectId = project.id;
      await e2e.admin.call('PATCH', `/projects/${projectId}`, { chatWidgetConfig: { displayName: 'Slow helper', welcomeMessage: 'Hi!' } });
      const elsewhere = await e2e.admin.call('POST', `/projects/${projectId}/keys`, {
        type: 'publishable',
        name: 'another site',
        assistantId: project.defaultAssistantId,
        allowedOrigins: ['https://elsewhere.example'],
      });
      const revoked = await e2e.admin.call('POST', `/projects/${projectId}/keys`, {
        type: 'publishable',
        name: 'revoked',
        assistantId: project.defaultAssistantId,
        allowedOrigins: [site.origin],
      });
      revokedKeyId = revoked.id;
      pages['/shop'] = { type: 'text/html', body: hostPage(e2e.url, publishableKey) };
      pages['/blocked'] = { type: 'text/html', body: hostPage(e2e.url, elsewhere.key) };
      pages['/revoked'] = { type: 'text/html', body: hostPage(e2e.url, revoked.key) };
    });

    const freshPage = async () => {
      await context?.close();
      context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
      return context.newPage();
    };

    it('draws one assistant message when the live events bring the finished reply before the reply stream', async () => {
      const page = await freshPage();
      // Latency on the reply stream only: its response reaches the page after the whole reply
      // was stored and announced on the live events.
      const stream = signal();
      await page.route(
        () => true,
        async (route) => {
          if (!isMessagePost(route)) return route.continue();
          const response = await route.fetch();
          await stream.promise;
          await route.fulfill({ response });
        },
      );
      await page.goto(`${site.origin}/shop`);
      await launcher(page).click();
      const input = panel(page).getByRole('textbox', { name: 'Message' });
      await input.fill('Are you open on Sunday?');
      await input.press('Enter');
      await gate.started();
      gate.release('Yes, **every day**.');
      // The live event drew the answer while the stream is still held back.
      await replies(page).locator('strong').first().waitFor();
      stream.resolve();
      // Sending again becomes possible only once the reply stream was read to its end.
      await input.fill('Thanks');
      await expect.poll(() => panel(page).getByRole('button', { name: 'Send message' }).isEnabled(), { timeout: 10_000 }).toBe(true);
      expect(await replies(page).count()).toBe(1);
      expect((await replies(page).locator('.palaver-bubble').textContent())?.trim()).toBe('Yes, every day.');
      expect(await replies(page).getAttribute('data-status')).toBe('complete');
      expect(await replies(page).getAttribute('data-message-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await panel(page).locator('.palaver-message--user').count()).toBe(1);
      await page.screenshot({ path: await artifactPath('widget-slow-stream.png') });

      // And the stored conversation holds that one reply.
      await page.unrouteAll({ behavior: 'wait' });
      await page.reload();
      await launcher(page).click();
      await replies(page).locator('strong').waitFor();
      expect(await replies(page).count()).toBe(1);
    });

    it('draws one assistant message with 300 ms of latency and a throttled download on every request (CDP)', async () => {
      const page = await freshPage();
      const cdp = await context.newCDPSession(page);
      await page.goto(`${site.origin}/shop`);
      await launcher(page).click();
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 300,
        downloadThroughput: 20 * 1024,
        uploadThroughput: 20 * 1024,
      });
      const input = panel(page).getByRole('textbox', { name: 'Message' });
      await input.fill('Is there parking?');
      await input.press('Enter');
      await gate.started();
      gate.release('Yes, **behind the shop**.');
      await replies(page).locator('strong').first().waitFor({ timeout: 10_000 });
      await input.fill('Thanks');
      await expect.poll(() => panel(page).getByRole('button', { name: 'Send message' }).isEnabled(), { timeout: 10_000 }).toBe(true);
      expect(await replies(page).count()).toBe(1);
      expect(await panel(page).locator('.palaver-message--user').count()).toBe(1);
    });

    it('shows the visitor’s message and the typing dots at once, before the reply stream answers', async () => {
      const page = await freshPage();
      const posted = signal();
      const stream = signal();
      await page.route(
        () => true,
        async (route) => {
          if (!isMessagePost(route)) return route.continue();
          posted.resolve();
          await stream.promise;
          await route.continue();
        },
      );
      await page.goto(`${site.origin}/shop`);
      await launcher(page).click();
      const input = panel(page).getByRole('textbox', { name: 'Message' });
      await input.fill('Do you ship abroad?');
      await input.press('Enter');
      await posted.promise;
      // The request is held back: nothing has answered yet, and the visitor already sees both.
      await panel(page).locator('.palaver-message--user', { hasText: 'Do you ship abroad?' }).waitFor({ timeout: 2_000 });
      await panel(page).getByRole('status', { name: 'The assistant is typing' }).waitFor({ timeout: 2_000 });
      expect(await replies(page).count()).toBe(1);
      await page.screenshot({ path: await artifactPath('widget-typing-at-once.png') });

      stream.resolve();
      await gate.started();
      gate.release('We ship to **every country** in the EU.');
      await replies(page).locator('strong').waitFor();
      expect(await panel(page).getByRole('status', { name: 'The assistant is typing' }).count()).toBe(0);
      expect(await replies(page).count()).toBe(1);
    });

    const consoleWarnings = (page: Page) => {
      const warnings: string[] = [];
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'warning') warnings.push(message.text());
      });
      return warnings;
    };

    it('shows no launcher on a website its key does not allow, and tells the site owner once in the console', async () => {
      const page = await freshPage();
      const warnings = consoleWarnings(page);
      const warned = page.waitForEvent('console', (message) => message.type() === 'warning');
      await page.goto(`${site.origin}/blocked`);
      await warned;
      expect(await widget(page).locator('.palaver-launcher, .palaver-panel').count()).toBe(0);
      // The handle's open() cannot bring up a chat that cannot work either.
      await page.evaluate(() => (window as unknown as { Palaver: { widget: { open(): void } } }).Palaver.widget.open());
      expect(await widget(page).locator('.palaver-launcher, .palaver-panel').count()).toBe(0);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(site.origin);
      expect(warnings[0]).toMatch(/allowed origins/i);
      await page.screenshot({ path: await artifactPath('widget-blocked-origin.png') });
    });

    it('shows no launcher with a revoked key, and tells the site owner once in the console', async () => {
      await e2e.admin.call('DELETE', `/projects/${projectId}/keys/${revokedKeyId}`);
      const page = await freshPage();
      const warnings = consoleWarnings(page);
      const warned = page.waitForEvent('console', (message) => message.type() === 'warning');
      await page.goto(`${site.origin}/revoked`);
      await warned;
      expect(await widget(page).locator('.palaver-launcher, .palaver-panel').count()).toBe(0);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(site.origin);
      expect(warnings[0]).toMatch(/invalid or was revoked/);
    });
  },
);
