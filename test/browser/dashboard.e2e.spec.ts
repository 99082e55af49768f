import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable, useChromium } from '../support/chromium';
import { http, useE2eApp } from '../support/e2e-app';
import { followSidebar, fullScreenshot, signedOutTab } from './support/dashboard';

const available = chromiumAvailable();
const SHOP = 'https://shop.example';
const OTHER_SITE = 'https://evil.example';

/** A visitor of the shop's site, calling the v2 API as the widget would from that origin. */
const visitorAsk = async (url: string, apiKey: string, question: string, origin = SHOP) => {
  const headers = { origin };
  const init = await http(`${url}/v2/identity/init`, { body: { apiKey, saVid: `device-${Math.random()}` }, headers });
  if (init.status >= 300) return { status: init.status, text: init.text };
  const token = init.body.sessionToken as string;
  const conversation = await http(`${url}/v2/conversations`, { body: {}, token, headers });
  const reply = await http(`${url}/v2/conversations/${conversation.body.id}/messages`, { body: { content: question }, token, headers });
  return {
    status: reply.status,
    text: reply.body.steps?.[0]?.content?.[0]?.text as string,
    token,
    conversationId: conversation.body.id as string,
  };
};

describe.skipIf(!available)(browserSuiteTitle('the dashboard in Chromium', available), () => {
  const e2e = useE2eApp();
  const browser = useChromium();
  let page: Page;
  let publishableKey = '';
  let projectId = '';
  /** What Chromium refused under the dashboard's Content-Security-Policy, over the whole suite. */
  const cspViolations: string[] = [];

  const shot = (name: string) => fullScreenshot(page, `dashboard-${name}.png`);
  const go = (section: string) => followSidebar(page, section);

  beforeAll(async () => {
    page = await signedOutTab(browser, cspViolations);
  });

  it('refuses a wrong admin token with the API’s message, then signs in and keeps the token for the tab only', async () => {
    await page.goto(`${e2e.url}/dashboard/`);
    await page.getByRole('button', { name: 'Use the admin token' }).click();
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('invalid admin token');
    await page.getByLabel('Admin token').fill('test-admin-token');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('palaver.adminToken')")).toBe('test-admin-token');
    expect(await page.evaluate('localStorage.length')).toBe(0);
    await page.getByText('No projects yet').waitFor();
  });

  it('creates a project and edits its settings', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Aurora Shop');
    await page.getByLabel('Description').fill('Headphones and speakers');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    projectId = /projects\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    await page.getByLabel('Messages per minute').fill('30');
    await page.getByRole('button', { name: 'Add a prompt' }).click();
    await page.getByLabel('Title 1', { exact: true }).fill('Returns');
    await page.getByLabel('Prompt 1', { exact: true }).fill('What is the return window?');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    const project = await e2e.admin.call('GET', `/projects/${projectId}`);
    expect(project).toMatchObject({ name: 'Aurora Shop', limits: { messagesPerMinute: 30, monthlyMessages: null } });
    expect(project.quickPrompts).toMatchObject([{ title: 'Returns', prompt: 'What is the return window?' }]);
  });

  it('is usable from the keyboard: skip link, sidebar links in order, current page marked', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('main');
    expect(page.url()).toContain(`/projects/${projectId}/settings`);
    const sidebar = page.getByRole('navigation', { name: 'Project' });
    await sidebar.getByRole('link', { name: 'Settings', exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Keys');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();
    expect(await sidebar.getByRole('link', { name: 'Keys', exact: true }).getAttribute('aria-current')).toBe('page');
  });

  it('creates a publishable key limited to the shop’s origin and lists it whole (it is public)', async () => {
    await go('Keys');
    await page.getByText('No keys yet').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Shop widget');
    await page.getByLabel('Allowed origins').fill(SHOP);
    await page.getByRole('button', { name: 'Create key' }).click();
    publishableKey = (await page.getByTestId('created-key').textContent())!.trim();
    expect(publishableKey).toMatch(/^pk_/);
    const row = page.getByRole('row', { name: /Shop widget/ });
    expect(await row.textContent()).toContain(publishableKey);
    expect(await row.textContent()).toContain(SHOP);
    await shot('keys');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('created-key').count()).toBe(0);
  });

  it('adds a Q&A entry and finds it by search', async () => {
    await go('Q&A');
    await page.getByLabel('Question').fill('What is the return window?');
    await page.getByLabel('Answer').fill('You can return any item within 45 days of delivery.');
    await page.getByRole('button', { name: 'Add Q&A entry' }).click();
    await page.getByText('You can return any item within 45 days of delivery.').waitFor();
    await page.getByLabel('Search').fill('zeppelin');
    await page.getByText('Nothing matches “zeppelin”').waitFor();
    await page.getByLabel('Search').fill('return');
    await page.getByText('You can return any item within 45 days of delivery.').waitFor();
  });

  it('uploads a Markdown document with a progress bar', async () => {
    await go('Documents');
    await page.getByText('No documents yet').waitFor();
    await page.getByLabel('Base URL for files').fill(`${SHOP}/help`);
    await page.getByLabel('Files', { exact: true }).setInputFiles({
      name: 'shipping.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Shipping to Iceland\n\nParcels to Iceland travel with Polar Express and arrive within 6 working days.\n'),
    });
    await page.getByText('Ready: 1 documents, 0 Q&A entries.').waitFor();
    await page.getByRole('button', { name: 'Upload 1 item' }).click();
    await page.getByText('Uploaded 1 item.').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Upload progress' }).count()).toBe(0);
    const row = page.getByRole('row', { name: /Shipping to Iceland/ });
    expect(await row.textContent()).toContain(`${SHOP}/help/shipping`);
    await shot('documents');
  });

  it('sets the widget colour, previewed at once and saved', async () => {
    await go('Widget');
    const brand = page.locator('input[name="brandColor"]');
    await brand.fill('#e11d48');
    // The real widget when the gateway serves /widget.js, else the dashboard's own picture of it.
    const preview = page.getByTestId('widget-preview');
    const widgetServed = (await http(`${e2e.url}/widget.js`)).status === 200;
    await expect.poll(() => preview.getAttribute('data-mode')).toBe(widgetServed ? 'widget' : 'faithful');
    const previewMarkup = () =>
      preview.evaluate((el) => [el, ...el.querySelectorAll('*')].map((node) => node.shadowRoot?.innerHTML ?? '').join('\n'));
    await expect.poll(previewMarkup).toMatch(/#e11d48|rgb\(225, 29, 72\)/i);
    await page.getByRole('button', { name: 'Save widget' }).click();
    await page.getByText('Saved: the widget shows it on its next load.').waitFor();
    expect(await page.locator('pre.snippet').textContent()).toContain(`${e2e.url}/widget.js" data-key="${publishableKey}"`);
    await page.evaluate('window.scrollTo(0, 0)');
    await shot('widget');
    await page.screenshot({ path: await artifactPath('dashboard-readme.png') });
    const project = await e2e.admin.call('GET', `/projects/${projectId}`);
    expect(project.chatWidgetConfig.brandColor).toBe('#e11d48');
    const current = await http(`${e2e.url}/v2/projects/current?apiKey=${publishableKey}`, { headers: { origin: SHOP } });
    expect(current.body.chatWidgetConfig.brandColor).toBe('#e11d48');
  });

  it('sets the optional chat button colour, and clears it by emptying the field', async () => {
    const buttonColour = page.locator('input[name="chatButtonColor"]');
    const saveAndRead = async () => {
      await page.getByRole('button', { name: 'Save widget' }).click();
      await page.getByText('Saved: the widget shows it on its next load.').waitFor();
      return (await e2e.admin.call('GET', `/projects/${projectId}`)).chatWidgetConfig;
    };
    await buttonColour.fill('#0f766e');
    expect((await saveAndRead()).chatButtonColor).toBe('#0f766e');
    await buttonColour.fill('');
    const cleared = await saveAndRead();
    expect(cleared).not.toHaveProperty('chatButtonColor');
    expect(cleared.brandColor).toBe('#e11d48');
    expect(await buttonColour.inputValue()).toBe('');
  });

  it('answers a visitor of the allowed origin from that content, and refuses another origin', async () => {
    const returns = await visitorAsk(e2e.url, publishableKey, 'What is the return window?');
    expect(returns.status).toBe(200);
    expect(returns.text).toMatch(/45 days/);
    const shipping = await visitorAsk(e2e.url, publishableKey, 'How long does shipping to Iceland take?');
    expect(shipping.text).toMatch(/6 working days|Polar Express/);
    const elsewhere = await visitorAsk(e2e.url, publishableKey, 'What is the return window?', OTHER_SITE);
    expect(elsewhere.status).toBe(403);
  });

  it('charts feedback, ranks the disliked answer and tails the events live', async () => {
    await go('Feedback');
    await page.getByText('No disliked answers').waitFor();
    await page.locator('.live-live').waitFor();
    const visitor = await visitorAsk(e2e.url, publishableKey, 'What is the return window?');
    const messages = await http(`${e2e.url}/v2/conversations/${visitor.conversationId}/messages?role=assistant`, {
      token: visitor.token,
      headers: { origin: SHOP },
    });
    const disliked = await http(`${e2e.url}/v2/messages/${messages.body.data[0].id}/feedback`, {
      body: { feedback: 'dislike' },
      token: visitor.token,
      headers: { origin: SHOP },
    });
    expect(disliked.status).toBe(200);
    await page.locator('.event-tail').getByText('feedback.given').waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Q: What is the return window?').waitFor();
    expect(await page.locator('.stat').nth(1).textContent()).toContain('1');
    expect(await page.locator('svg .bar-dislike').count()).toBeGreaterThan(0);
    await shot('feedback');
  });

  it('shows the visitor’s conversations and one transcript', async () => {
    await go('Conversations');
    await page.getByRole('link', { name: 'What is the return window?' }).first().click();
    await page.getByText('You can return any item within 45 days of delivery.', { exact: false }).first().waitFor();
    await shot('conversation');
  });

  it('works the agents’ inbox: live queue, claim, reply, the visitor’s next message live, release', async () => {
    await e2e.admin.call('PATCH', `/projects/${projectId}`, { handoff: { enabled: true } });
    await go('Inbox');
    await page.getByLabel('Agent name').fill('Ada');
    await page.getByRole('button', { name: 'Create agent' }).click();
    expect(await page.getByTestId('created-agent-token').textContent()).toMatch(/^ak_/);
    await page.getByRole('button', { name: 'Work as Ada' }).click();
    await page.getByRole('button', { name: 'Stop working as Ada' }).waitFor();
    await page.locator('.live-live').waitFor();
    await page.getByText('Nobody is waiting').waitFor();

    const visitor = await visitorAsk(e2e.url, publishableKey, 'Can I talk to a human please?');
    expect(visitor.status).toBe(200);
    const queued = page.getByTestId('queue').getByText('Can I talk to a human please?').first();
    await queued.waitFor();
    await page.getByRole('button', { name: 'Claim next' }).click();
    await page.getByRole('button', { name: 'Release to the assistant' }).waitFor();
    await page.getByLabel('Reply', { exact: true }).fill('Hi, Ada here. How can I help?');
    await page.getByRole('button', { name: 'Send reply' }).click();
    const seen = async () => {
      const got = await http(`${e2e.url}/v2/conversations/${visitor.conversationId}`, { token: visitor.token, headers: { origin: SHOP } });
      return got.body.messages.map((m: { role: string; parts: { text: string }[] }) => `${m.role}: ${m.parts[0]?.text}`);
    };
    await expect.poll(seen).toContain('human_agent: Hi, Ada here. How can I help?');

    const followUp = await http(`${e2e.url}/v2/conversations/${visitor.conversationId}/messages`, {
      body: { content: 'My parcel never arrived.' },
      token: visitor.token,
      headers: { origin: SHOP },
    });
    expect(followUp.status).toBe(202);
    await page.locator('.transcript').getByText('My parcel never arrived.').waitFor();
    await shot('inbox');

    // A reload starts from what Ada holds and the feed after it, not from the project's history.
    const feedRequests: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/agent/v1/events')) feedRequests.push(request.url());
    };
    page.on('request', onRequest);
    await page.reload();
    await page.getByText('Yours (1)').waitFor();
    await page.locator('.live-live').waitFor();
    page.off('request', onRequest);
    expect(feedRequests.length).toBeGreaterThan(0);
    for (const url of feedRequests) expect(Number(new URL(url).searchParams.get('after'))).toBeGreaterThan(0);
    await page.getByRole('button', { name: /Can I talk to a human please/ }).click();

    await page.getByRole('button', { name: 'Release to the assistant' }).click();
    // Asked first: the visitor would be answered by the assistant again.
    const confirm = page.getByRole('dialog', { name: 'Release to the assistant?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByText('You hold no conversation').waitFor();
    const released = await http(`${e2e.url}/v2/conversations/${visitor.conversationId}`, {
      token: visitor.token,
      headers: { origin: SHOP },
    });
    expect(released.body.isHumanHandled).toBe(false);
  });

  it('revokes the key after confirmation, and the visitor is refused at once', async () => {
    const visitor = await visitorAsk(e2e.url, publishableKey, 'What is the return window?');
    await go('Keys');
    await page.getByRole('button', { name: 'Revoke Shop widget' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await visitorAsk(e2e.url, publishableKey, 'still there?')).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke Shop widget' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByText(/revoked/)
      .first()
      .waitFor();
    await shot('revoked');
    expect((await visitorAsk(e2e.url, publishableKey, 'What is the return window?')).status).toBe(401);
    const sameSession = await http(`${e2e.url}/v2/conversations/${visitor.conversationId}`, {
      token: visitor.token,
      headers: { origin: SHOP },
    });
    expect(sameSession.status).toBe(401);
  });

  it('goes back to sign-in when the token stops working', async () => {
    await page.evaluate("sessionStorage.setItem('palaver.adminToken', 'revoked-token')");
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('palaver.adminToken')")).toBeNull();
  });

  it('broke no rule of its Content-Security-Policy on any page above', () => {
    expect(cspViolations).toEqual([]);
  });
});
