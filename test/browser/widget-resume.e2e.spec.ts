import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { SteppedChatModel } from '../support/stepped-chat-model';
import { useWidgetShop } from './support/widget-shop';

const available = chromiumAvailable();

const widget = (page: Page) => page.locator('palaver-widget');
const panel = (page: Page) => widget(page).getByRole('dialog');
const lastReply = (page: Page) => panel(page).locator('.palaver-message--assistant[data-message-id]').last();

describe.runIf(available)(browserSuiteTitle('the widget resumes and stops a reply, in Chromium', available), { timeout: 60_000 }, () => {
  const model = new SteppedChatModel();
  const pages: Record<string, { type: string; body: string }> = {};
  const { e2e, site, browser, shop } = useWidgetShop({ name: 'Resume shop', pages, chatModel: model });
  beforeAll(async () => {
    pages['/shop'] = {
      type: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>
<script src="${e2e.url}/widget.js" data-key="${shop.keys.publishableKey}" async></script></body></html>`,
    };
  });

  it('shows the reply again after a reload and follows it to its end; the stop button ends a reply, which keeps its text', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${site.origin}/shop`);
    await widget(page).locator('.palaver-launcher').click();
    const input = panel(page).getByRole('textbox', { name: 'Message' });
    await input.fill('Tell me about your bikes');
    await input.press('Enter');
    await model.started();
    model.send('Our bikes are light, ');
    await expect.poll(() => lastReply(page).locator('.palaver-bubble').textContent()).toContain('Our bikes are light,');
    expect(await panel(page).getByRole('button', { name: 'Stop the answer' }).isVisible()).toBe(true);

    // The visitor reloads mid-reply: the reply is shown again from its start and goes on.
    await page.reload();
    await widget(page).locator('.palaver-launcher').click();
    await expect.poll(() => lastReply(page).locator('.palaver-bubble').textContent()).toContain('Our bikes are light,');
    await panel(page).getByRole('button', { name: 'Stop the answer' }).waitFor();
    model.send('fast and **repairable**.');
    await lastReply(page).locator('strong').waitFor();
    await page.screenshot({ path: await artifactPath('widget-resumed.png') });
    model.end();
    await panel(page).getByRole('button', { name: 'Send message' }).waitFor();
    expect(await lastReply(page).locator('.palaver-bubble').textContent()).toContain('Our bikes are light, fast and repairable.');

    // A second question, stopped halfway with the stop button.
    await input.fill('And the prices?');
    await input.press('Enter');
    await model.started();
    model.send('Prices start at');
    await expect.poll(() => lastReply(page).locator('.palaver-bubble').textContent()).toContain('Prices start at');
    await page.screenshot({ path: await artifactPath('widget-stop-button.png') });
    const stopped = page.waitForResponse((response) => response.url().endsWith('/stop'));
    await panel(page).getByRole('button', { name: 'Stop the answer' }).click();
    expect(await (await stopped).json()).toMatchObject({ stopped: true });
    await panel(page).getByRole('button', { name: 'Send message' }).waitFor();
    await expect.poll(() => model.cancelled).toBe(1);
    expect(await lastReply(page).locator('.palaver-bubble').textContent()).toContain('Prices start at');
    // After another reload, the stopped reply is there with its text, and nothing resumes.
    await page.reload();
    await widget(page).locator('.palaver-launcher').click();
    await expect.poll(() => lastReply(page).locator('.palaver-bubble').textContent()).toContain('Prices start at');
    await panel(page).getByRole('button', { name: 'Send message' }).waitFor();
    await context.close();
  });
});
