import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { type E2eApp, http } from '../support/e2e-app';
import type { StaticPage, StaticSite } from '../support/static-site';
import { seriousViolations } from './support/axe';
import { widgetHostPage } from './support/widget-page';
import { startWidgetShop, type WidgetShop } from './support/widget-shop';

// An agent works the inbox while a visitor talks through the widget on the shop's site: the alert
// for a new waiting visitor, claim, markdown, a canned reply, a note the visitor never sees, typing
// both ways, release asked first, close.
const available = chromiumAvailable();
/** axe-core on the inbox, the page's main region. */
const inInbox = { include: [['main']] };

/** Records the system notifications and sounds the page makes (the browser's own are not observable headless). */
const RECORD_ALERTS = `
  window.__alerts = { notifications: [], sounds: 0 };
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__alerts.notifications.push({ title, body: options && options.body }); }
  };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__alerts.sounds += 1; return start.apply(this, args); };
`;

describe.runIf(available)(browserSuiteTitle('the agents’ inbox in Chromium', available), { timeout: 120_000 }, () => {
  let shop: WidgetShop;
  let e2e: E2eApp;
  let site: StaticSite;
  let browser: Browser;
  let projectId: string;
  let publishableKey: string;
  const pages: Record<string, StaticPage> = {};

  beforeAll(async () => {
    shop = await startWidgetShop({ name: 'Bike shop', pages });
    ({ e2e, site, browser } = shop);
    projectId = shop.keys.project.id;
    publishableKey = shop.keys.publishableKey;
    await e2e.admin.call('PATCH', `/projects/${projectId}`, { handoff: { enabled: true } });
    pages['/'] = widgetHostPage(e2e.url, publishableKey, { title: 'Bike shop · Chains', heading: 'Chains' });
  }, 60_000);

  afterAll(() => shop?.close());

  /** The dashboard signed in with the admin token, working as a new agent of the project. */
  const openInbox = async (viewport: { width: number; height: number }, agentName: string) => {
    const agent = await e2e.admin.call('POST', `/projects/${projectId}/agents`, { name: agentName });
    const context = await browser.newContext({ viewport });
    await context.grantPermissions(['notifications'], { origin: e2e.url });
    await context.addInitScript(
      `sessionStorage.setItem('palaver.adminToken', 'test-admin-token');
       sessionStorage.setItem('palaver.agentToken.${projectId}', '${agent.token}');
       ${RECORD_ALERTS}`,
    );
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${e2e.url}/dashboard/projects/${projectId}/inbox`);
    await page.locator('.live-live').waitFor();
    return { page, token: agent.token as string };
  };

  const openWidget = async () => {
    const page = await (await browser.newContext({ viewport: { width: 900, height: 760 } })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(site.origin);
    const widget = page.locator('palaver-widget');
    await widget.locator('.palaver-launcher').click();
    return { page, widget, input: widget.getByRole('textbox', { name: 'Message' }) };
  };

  it('alerts, claims, renders markdown, inserts a canned reply, keeps notes from the visitor, shows typing, asks before release and close', async () => {
    const { page } = await openInbox({ width: 1280, height: 800 }, 'Ada');
    await page.getByText('Nobody is waiting').waitFor();

    // An admin writes a canned reply from the inbox (another came through the API).
    await e2e.admin.call('POST', `/projects/${projectId}/canned-replies`, {
      shortcut: 'chain-care',
      title: 'Chain care',
      content: 'Clean and oil the chain every 300 km.',
    });
    await page.getByRole('button', { name: 'Canned replies' }).click();
    const manager = page.getByRole('dialog', { name: 'Canned replies' });
    await manager.getByLabel('Shortcut').fill('chain');
    await manager.getByLabel('Title').fill('Chain slipping');
    await manager.getByLabel('Content').fill('A slipping chain is **usually worn**: bring the bike in and we check it for free.');
    await manager.getByRole('button', { name: 'Add canned reply' }).click();
    await manager.getByText('/chain', { exact: true }).waitFor();
    await manager.getByRole('button', { name: 'Done' }).click();

    // Alerts are off until the agent opts in; no permission is asked before.
    expect(await page.evaluate("localStorage.getItem('palaver.inboxAlerts')")).toBeNull();
    await page.getByLabel('Alert me when a visitor waits').check();
    expect(await page.evaluate("localStorage.getItem('palaver.inboxAlerts')")).toBe('on');

    const visitor = await openWidget();
    await visitor.input.fill('Can I talk to a human, please?');
    await visitor.input.press('Enter');
    await page.getByTestId('queue').getByText('Can I talk to a human, please?').first().waitFor();
    // The open inbox says the agent is online: the visitor waits for a person, not for an email.
    await expect.poll(() => visitor.widget.locator('#palaver-title').textContent()).toBe('Waiting for a person');
    await expect
      .poll(() => page.evaluate('window.__alerts.notifications.map((n) => n.title)'))
      .toEqual(['A visitor is waiting for a person']);
    expect(await page.evaluate('window.__alerts.sounds')).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Claim next' }).click();
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('Can I talk to a human, please?').waitFor();

    // The visitor panel: the page they are on and their browser.
    const panel = page.getByRole('region', { name: 'Visitor' });
    await panel.getByText('Bike shop · Chains').waitFor();
    await panel.getByText(/Chrome \d+ on Linux/).waitFor();

    // "/" lists the canned replies; Enter inserts one, Enter again sends it.
    const reply = page.getByLabel('Reply', { exact: true });
    await reply.fill('/ch');
    const list = page.getByRole('listbox', { name: 'Canned replies' });
    await list.getByRole('option', { name: /\/chain Chain slipping/ }).waitFor();
    const active = () => list.getByRole('option', { selected: true }).textContent();
    expect(await list.getByRole('option').allTextContents()).toEqual(['/chain Chain slipping', '/chain-care Chain care']);
    expect(await active()).toBe('/chain Chain slipping');
    await reply.press('ArrowDown');
    expect(await active()).toBe('/chain-care Chain care');
    await page.screenshot({ path: await artifactPath('inbox-canned.png') });
    const activeId = await reply.getAttribute('aria-activedescendant');
    expect(await list.getByRole('option', { selected: true }).getAttribute('id')).toBe(activeId);
    await reply.press('ArrowUp');
    expect(await active()).toBe('/chain Chain slipping');
    await reply.press('Escape');
    expect(await list.count()).toBe(0);
    await reply.press('a');
    await list.waitFor();
    await reply.press('Enter');
    expect(await reply.inputValue()).toBe('A slipping chain is **usually worn**: bring the bike in and we check it for free.');
    expect(await list.count()).toBe(0);
    await reply.press('Enter');
    // Markdown, as the widget renders it, on both sides.
    await transcript.locator('.turn-human_agent strong', { hasText: 'usually worn' }).waitFor();
    await visitor.widget.locator('.palaver-message--human_agent strong', { hasText: 'usually worn' }).waitFor();
    expect(await transcript.getByText('**usually worn**').count()).toBe(0);

    // A note: styled apart in the inbox, never shown to the visitor.
    await page.getByRole('button', { name: 'Note', exact: true }).click();
    const note = page.getByLabel('Note', { exact: true });
    await note.fill('Regular customer, offer the **loyalty discount**.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await transcript.locator('.turn-note strong', { hasText: 'loyalty discount' }).waitFor();
    await page.getByRole('button', { name: 'Reply', exact: true }).click();
    await page.getByLabel('Reply', { exact: true }).fill('Which bike is it?');
    await page.getByLabel('Reply', { exact: true }).press('Enter');
    await visitor.widget.getByText('Which bike is it?').waitFor();
    expect(await visitor.widget.getByText(/loyalty discount/).count()).toBe(0);

    // The visitor types: the inbox says so, until their message arrives.
    const deviceId = (await visitor.page.evaluate("localStorage.getItem('palaver.deviceId')")) as string;
    const session = await http(`${e2e.url}/v2/identity/init`, {
      body: { apiKey: publishableKey, saVid: deviceId },
      headers: { origin: site.origin },
    });
    const held = await http(`${e2e.url}/agent/v1/conversations`, { token: (await agentTokenOf(page)) as string });
    const id = held.body.data[0].id as string;
    const typing = await http(`${e2e.url}/v2/conversations/${id}/typing`, {
      method: 'POST',
      token: session.body.sessionToken,
      headers: { origin: site.origin },
    });
    expect(typing.status).toBe(204);
    await transcript.getByText('Visitor is typing…').waitFor();
    await page.screenshot({ path: await artifactPath('inbox-desktop.png') });
    await visitor.input.fill('A red road bike.');
    await visitor.input.press('Enter');
    await transcript.getByText('A red road bike.').waitFor();
    expect(await transcript.getByText('Visitor is typing…').count()).toBe(0);
    // Without a message, the signal lasts its 5 seconds (the server keeps one signal per 2 s: sent until one passes).
    const typingShown = transcript.getByText('Visitor is typing…');
    await expect
      .poll(
        async () => {
          await http(`${e2e.url}/v2/conversations/${id}/typing`, {
            method: 'POST',
            token: session.body.sessionToken,
            headers: { origin: site.origin },
          });
          return typingShown.count();
        },
        { interval: 500, timeout: 8000 },
      )
      .toBe(1);
    const shownAt = Date.now();
    await typingShown.waitFor({ state: 'detached', timeout: 8000 });
    expect(Date.now() - shownAt).toBeGreaterThan(3500);

    // The agent types: the visitor's widget is told (one signal per 2 s at most).
    const sent: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith(`/agent/v1/conversations/${id}/typing`)) sent.push(response.status());
    });
    await page.getByLabel('Reply', { exact: true }).pressSequentially('Let me check', { delay: 40 });
    await expect.poll(() => sent).toEqual([204]);

    expect(await seriousViolations(page, inInbox)).toEqual([]);

    // Release is asked first; cancelled, the conversation stays.
    await page.getByRole('button', { name: 'Release to the assistant' }).click();
    const release = page.getByRole('dialog', { name: 'Release to the assistant?' });
    await release.waitFor();
    await page.screenshot({ path: await artifactPath('inbox-release.png') });
    await release.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Yours (1)').waitFor();

    // Close, asked first too.
    await page.getByRole('button', { name: 'Close the conversation' }).click();
    const close = page.getByRole('dialog', { name: 'Close this conversation?' });
    await close.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByText('You hold no conversation').waitFor();
    const after = await http(`${e2e.url}/v2/conversations/${id}`, { token: session.body.sessionToken, headers: { origin: site.origin } });
    expect(after.body.status).toBe('closed');
  });

  it('on a phone: the list, then the conversation with its composer in view, the visitor on demand', async () => {
    const { page } = await openInbox({ width: 390, height: 844 }, 'Bo');
    const visitor = await openWidget();
    await visitor.input.fill('Can I speak to a person about my order?');
    await visitor.input.press('Enter');
    await page.getByTestId('queue').getByText('Can I speak to a person about my order?').first().waitFor();
    await page.screenshot({ path: await artifactPath('inbox-phone-list.png') });
    await page.getByRole('button', { name: 'Claim next' }).click();
    const reply = page.getByLabel('Reply', { exact: true });
    await reply.waitFor();
    await reply.scrollIntoViewIfNeeded();
    const box = (await reply.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await page.screenshot({ path: await artifactPath('inbox-phone-conversation.png') });
    await page.getByRole('button', { name: 'Visitor' }).click();
    await page
      .getByRole('region', { name: 'Visitor' })
      .getByText(/Chrome \d+ on Linux/)
      .waitFor();
    await page.screenshot({ path: await artifactPath('inbox-phone-visitor.png') });
    expect(await seriousViolations(page, inInbox)).toEqual([]);
    await page.getByRole('button', { name: 'Hide the visitor panel' }).click();
    expect(await page.getByRole('region', { name: 'Visitor' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await page.getByText('Yours (1)').waitFor();
  });
});

/** The agent token the inbox works with (kept for the tab). */
const agentTokenOf = (page: Page) =>
  page.evaluate(() => Object.entries(sessionStorage).find(([k]) => k.startsWith('palaver.agentToken.'))?.[1]);
