import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { http } from '../support/e2e-app';
import { useWidgetShop } from './support/widget-shop';

const available = chromiumAvailable();
const OFFLINE = 'Our team is away for the weekend. Your conversation is in our queue.';

const hostPage = (appUrl: string, key: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Quiet shop</title></head><body><h1>Shop</h1>
<script src="${appUrl}/widget.js" data-key="${key}" async></script></body></html>`;

describe.runIf(available)(browserSuiteTitle('the widget when nobody is online, in Chromium', available), { timeout: 60_000 }, () => {
  let projectId: string;
  let agentToken: string;
  const pages: Record<string, { type: string; body: string }> = {};

  const { e2e, site, browser, shop } = useWidgetShop({ name: 'Quiet shop', pages });
  beforeAll(async () => {
    projectId = shop.keys.project.id;
    await e2e.admin.call('PATCH', `/projects/${projectId}`, { handoff: { enabled: true, offlineMessage: OFFLINE } });
    agentToken = (await e2e.admin.call('POST', `/projects/${projectId}/agents`, { name: 'Ada' })).token;
    pages['/'] = { type: 'text/html', body: hostPage(e2e.url, shop.keys.publishableKey) };
  });

  it("says we'll email you, queues the visitor who asks for a person with the offline message, and takes their email", async () => {
    const page = await (await browser.newContext({ viewport: { width: 900, height: 760 } })).newPage();
    await page.goto(site.origin);
    const widget = page.locator('palaver-widget');
    await widget.locator('.palaver-launcher').click();
    await expect.poll(() => widget.locator('.palaver-subtitle').textContent()).toContain("we'll email you");

    await widget.getByRole('textbox', { name: 'Message' }).fill('Can I talk to a human, please?');
    await widget.getByRole('textbox', { name: 'Message' }).press('Enter');
    await widget.getByText(OFFLINE).waitFor();
    const form = widget.getByRole('form', { name: 'Leave your email' });
    await form.waitFor();
    await page.screenshot({ path: await artifactPath('widget-offline-form.png') });

    await form.getByRole('textbox', { name: 'Email' }).fill('ana@example.com');
    await form.getByRole('textbox', { name: 'Name' }).fill('Ana');
    await form.getByRole('button', { name: 'Send my email' }).click();
    await widget.getByText('Thanks! We will email you at ana@example.com.').waitFor();
    expect(await form.count()).toBe(0);
    await page.screenshot({ path: await artifactPath('widget-offline-thanks.png') });

    const queue = (await http(`${e2e.url}/agent/v1/queue`, { token: agentToken })).body.data;
    expect(queue).toHaveLength(1);
    expect(queue[0].contact).toMatchObject({ email: 'ana@example.com', name: 'Ana' });
  });

  it('says a person usually replies within minutes while an agent is online', async () => {
    await http(`${e2e.url}/agent/v1/presence`, { method: 'PUT', body: { status: 'online' }, token: agentToken });
    const page = await (await browser.newContext()).newPage();
    await page.goto(site.origin);
    const widget = page.locator('palaver-widget');
    await widget.locator('.palaver-launcher').click();
    await expect.poll(() => widget.locator('.palaver-subtitle').textContent()).toContain('a person usually replies within minutes');
  });
});
