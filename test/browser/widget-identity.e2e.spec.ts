import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { http } from '../support/e2e-app';
import { RecordingChatModel } from '../support/recording-chat-model';
import { epochSeconds, signUserToken } from '../support/user-token';
import { useWidgetShop } from './support/widget-shop';

const available = chromiumAvailable();

const hostPage = (appUrl: string, key: string, userToken?: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Signed-in shop</title></head><body><h1>Shop</h1>
<script src="${appUrl}/widget.js" data-key="${key}"${userToken ? ` data-user-token="${userToken}"` : ''} async></script></body></html>`;

/** The visitor of the next `identity/init` the page makes. */
const nextInit = (page: Page) =>
  page
    .waitForResponse((response) => response.url().endsWith('/v2/identity/init'))
    .then(async (response) => ({ status: response.status(), body: await response.json() }));

describe.runIf(available)(browserSuiteTitle('the widget with a user token, in Chromium', available), { timeout: 60_000 }, () => {
  const pages: Record<string, { type: string; body: string }> = {};
  let customerId: string;
  let token: string;
  let privateKey: string;

  const { shop, e2e, site, browser } = useWidgetShop({ name: 'Signed-in shop', pages, chatModel: new RecordingChatModel() });
  beforeAll(async () => {
    const { keys } = shop;
    privateKey = keys.privateKey;
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, {
      quickPrompts: [{ title: 'Where is my parcel?', prompt: 'Where is my parcel?' }],
    });
    // Surface B knows the customer and one of her chats.
    const chatId = randomUUID();
    const chat = await http(`${e2e.url}/api/customers/user-42/chats/${chatId}/chat`, {
      body: { message: { role: 'user', parts: [{ type: 'text', text: 'Hello' }] }, streaming: false },
      headers: { 'x-service-key': privateKey },
    });
    expect(chat.status).toBe(200);
    customerId = (await http(`${e2e.url}/api/customers/user-42/chats/${chatId}`, { headers: { 'x-service-key': privateKey } })).body
      .customerId;
    const { secret } = await e2e.admin.call('POST', `/projects/${keys.project.id}/identity-secret`);
    token = signUserToken({ sub: 'user-42', name: 'Ann', exp: epochSeconds(3600) }, secret);
    pages['/signed-in'] = { type: 'text/html', body: hostPage(e2e.url, keys.publishableKey, token) };
    pages['/anonymous'] = { type: 'text/html', body: hostPage(e2e.url, keys.publishableKey) };
  });

  it("data-user-token: the widget's session is surface B's customer, whose chats gain the new one", async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${site.origin}/signed-in`);
    const widget = page.locator('palaver-widget');
    await widget.locator('.palaver-launcher').click();
    const init = nextInit(page);
    await widget.getByRole('button', { name: 'Where is my parcel?' }).click();
    expect((await init).body.visitor).toMatchObject({ id: customerId, type: 'identified', externalId: 'user-42', name: 'Ann' });
    await expect
      .poll(
        async () => (await http(`${e2e.url}/api/customers/user-42/chats`, { headers: { 'x-service-key': privateKey } })).body.data.length,
      )
      .toBe(2);
  });

  it('Palaver.identify(token) switches an anonymous page to the user, and null back to the device', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${site.origin}/anonymous`);
    await page.locator('palaver-widget').waitFor({ state: 'attached' });
    const identified = nextInit(page);
    await page.evaluate((userToken) => window.Palaver!.identify(userToken), token);
    expect((await identified).body.visitor).toMatchObject({ id: customerId, type: 'identified' });
    const anonymous = nextInit(page);
    await page.evaluate(() => window.Palaver!.identify(null));
    expect((await anonymous).body.visitor).toMatchObject({ type: 'anonymous', externalId: null });
  });
});
