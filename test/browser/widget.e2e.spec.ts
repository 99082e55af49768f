import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { http } from '../support/e2e-app';
import { GatedChatModel } from '../support/gated-chat-model';
import { useWidgetShop } from './support/widget-shop';

const available = chromiumAvailable();

const WIDGET_CONFIG = {
  displayName: 'Shop helper',
  welcomeMessage: 'Hello! Ask me anything about **the shop**.',
  brandColor: 'rgb(15, 118, 110)',
  brandColorDark: 'rgb(45, 212, 191)',
  position: 'bottom-right',
};
const ANSWER = 'We are open **Monday to Friday**, 9:00 to 17:00. <img src=x onerror="window.__pwned=1">';
/** Served by the customer's site: the API takes only http(s) URLs for avatars and icons. */
const AVATAR_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#f59e0b"/></svg>';

const hostPage = (appUrl: string, key: string, extraHead = '') => `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host shop</title>${extraHead}</head>
<body><h1>Host shop</h1><p id="host-text">Our products are great. Select this sentence to ask about it.</p>
<script src="${appUrl}/widget.js" data-key="${key}" async></script></body></html>`;

const HOSTILE_CSS = `<style>
* { font-family: "Comic Sans MS", cursive !important; color: red !important; background: yellow !important;
    border-radius: 0 !important; width: auto !important; display: block !important; font-size: 30px !important; }
button { transform: rotate(8deg) !important; visibility: hidden !important; }
.palaver-panel, .palaver-launcher, .palaver-bubble { display: none !important; }
palaver-widget { display: none !important; }
</style>`;

const widget = (page: Page) => page.locator('palaver-widget');
const launcher = (page: Page) => widget(page).locator('.palaver-launcher');
const panel = (page: Page) => widget(page).getByRole('dialog');

describe.runIf(available)(browserSuiteTitle('the widget in Chromium, on a page of another origin', available), { timeout: 60_000 }, () => {
  let context: BrowserContext;
  const gate = new GatedChatModel();
  const pages: Record<string, { type: string; body: string }> = { '/avatar.svg': { type: 'image/svg+xml', body: AVATAR_SVG } };
  const agentAvatar = () => `${site.origin}/avatar.svg`;
  let projectId: string;

  const { e2e, site, browser, shop } = useWidgetShop({ name: 'Browser shop', pages, chatModel: gate });
  beforeAll(async () => {
    const { project, publishableKey } = shop.keys;
    projectId = project.id;
    await e2e.admin.call('PATCH', `/projects/${projectId}`, {
      chatWidgetConfig: WIDGET_CONFIG,
      quickPrompts: [{ title: 'Opening hours', prompt: 'What are your opening hours?' }],
    });
    pages['/shop'] = { type: 'text/html', body: hostPage(e2e.url, publishableKey) };
    pages['/hostile'] = { type: 'text/html', body: hostPage(e2e.url, publishableKey, HOSTILE_CSS) };
    pages['/preview'] = {
      type: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><title>Preview</title></head><body>
<div id="stage" style="position: relative; width: 700px; height: 640px; margin: 20px; border: 1px dashed #999"></div>
<script src="${e2e.url}/widget.js" data-preview></script></body></html>`,
    };
    const limited = await e2e.admin.createProject({
      allowedOrigins: [site.origin],
      name: 'Limited shop',
      limits: { messagesPerMinute: 1 },
    });
    pages['/limited'] = { type: 'text/html', body: hostPage(e2e.url, limited.publishableKey) };
    context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  });

  it('serves widget.js with caching headers, gzip and 304 on a matching ETag', async () => {
    const first = await fetch(`${e2e.url}/widget.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('javascript');
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await first.text()).length).toBeGreaterThan(1000);
    const again = await fetch(`${e2e.url}/widget.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const demo = await http(`${e2e.url}/demo?key=pk_example`);
    expect(demo.text).toContain('<script src="/widget.js" data-key="pk_example" async></script>');
    expect(demo.text).toContain(`&lt;script src="${e2e.url}/widget.js" data-key="pk_example" async&gt;`);
  });

  it('opens, answers a quick prompt with a streamed, safely rendered reply, takes a like, and keeps the history on reload', async () => {
    const page = await context.newPage();
    const eventStreams: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/events')) eventStreams.push(request.url());
    });
    await page.goto(`${site.origin}/shop`);
    await launcher(page).click();
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    expect(await panel(page).getByRole('heading').textContent()).toBe('Shop helper');
    expect(await panel(page).locator('.palaver-welcome strong').textContent()).toBe('the shop');
    // The visitor selected text on the host page before asking: it goes with the message.
    await page.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('host-text')!);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
    });
    await page.screenshot({ path: await artifactPath('widget-open.png') });

    const sent = page.waitForRequest((request) => request.url().endsWith('/messages') && request.method() === 'POST');
    await panel(page).getByRole('button', { name: 'Opening hours' }).click();
    const body = JSON.parse((await sent).postData()!);
    expect(body).toMatchObject({
      content: 'What are your opening hours?',
      stream: true,
      pageContext: { url: `${site.origin}/shop`, title: 'Host shop', textSelection: expect.stringContaining('Our products are great') },
    });
    await gate.started();
    // While the model has not answered yet, the reply is streaming with a typing indicator.
    await panel(page).getByRole('status', { name: 'The assistant is typing' }).waitFor();
    gate.release(ANSWER);
    const reply = panel(page).locator('.palaver-message--assistant[data-message-id]');
    await reply.locator('strong').waitFor();
    expect(await reply.locator('strong').textContent()).toBe('Monday to Friday');
    expect(await reply.locator('img').count()).toBe(0);
    expect(await reply.locator('.palaver-bubble').textContent()).toContain('<img src=x');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    const messageId = await reply.getAttribute('data-message-id');
    const liked = page.waitForResponse((response) => response.url().endsWith(`/messages/${messageId}/feedback`));
    await reply.getByRole('button', { name: 'Helpful', exact: true }).click();
    expect(await (await liked).json()).toEqual({ feedback: 'like' });
    expect(await reply.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: await artifactPath('widget-answer.png') });

    await page.reload();
    await launcher(page).click();
    const restored = panel(page).locator(`[data-message-id="${messageId}"]`);
    await restored.waitFor();
    expect(await restored.locator('strong').textContent()).toBe('Monday to Friday');
    expect(await restored.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await panel(page).locator('.palaver-message--user .palaver-bubble').textContent()).toBe('What are your opening hours?');

    // A human agent takes over: their name, avatar and message appear without a reload, from
    // the conversation's live events (followed since the conversation was opened).
    const conversationId = await page.evaluate(
      () => Object.entries(localStorage).find(([key]) => key.startsWith('palaver.conversation.'))?.[1],
    );
    await e2e.admin.call('POST', `/projects/${projectId}/conversations/${conversationId}/handoff`, {
      humanAgent: { name: 'Ada', image: agentAvatar() },
    });
    await e2e.admin.call('POST', `/projects/${projectId}/conversations/${conversationId}/messages`, {
      content: 'Hi, Ada here. Anything else?',
    });
    await panel(page).locator('.palaver-message--human_agent').waitFor({ timeout: 10_000 });
    expect(await panel(page).getByRole('heading').textContent()).toBe('Ada');
    expect(eventStreams.some((url) => url.includes(`/v2/conversations/${conversationId}/events`))).toBe(true);
    expect(await panel(page).locator('.palaver-header img.palaver-avatar').getAttribute('src')).toBe(agentAvatar());
    expect(await panel(page).locator('.palaver-message--human_agent .palaver-bubble').textContent()).toContain('Ada here');
    await page.screenshot({ path: await artifactPath('widget-agent.png') });

    // Ending the conversation sends the chosen reason.
    await panel(page).getByRole('button', { name: 'End conversation' }).click();
    await panel(page).getByLabel('My question was answered').check();
    const closing = page.waitForRequest((request) => request.url().endsWith(`/conversations/${conversationId}/close`));
    await panel(page).getByRole('alertdialog').getByRole('button', { name: 'End conversation' }).click();
    expect(JSON.parse((await closing).postData()!)).toEqual({ closeReason: 'My question was answered' });
    await panel(page).getByText('This conversation has ended.').waitFor();
    await page.close();
  });

  it('applies every chatWidgetConfig field, mounted explicitly in an element with live updates (the dashboard preview)', async () => {
    const page = await context.newPage();
    await page.goto(`${site.origin}/preview`);
    await page.waitForFunction(() => 'Palaver' in window);
    const config = {
      displayName: 'Preview bot',
      welcomeMessage: 'Preview *welcome*',
      inputPlaceholder: 'Type here',
      position: 'top-left',
      offset: { x: 30, y: 40 },
      width: 360,
      maxHeight: 480,
      bubbleRadius: 4,
      baseFontSize: 16,
      openDelay: 1_500, // long enough for the launcher to show first on a loaded CI machine
      brandColor: 'rgb(190, 18, 60)',
      userMessageBubbleColor: 'rgb(22, 101, 52)',
      chatButtonColor: 'rgb(0, 0, 0)',
      assistantAvatar: agentAvatar(),
      chatButtonIcon: agentAvatar(),
      customCSSStyles: '.palaver-title { letter-spacing: 3px; }',
    };
    const started = Date.now();
    await page.evaluate((config) => {
      const win = window as unknown as { Palaver: { mount(options: object): { update(config: object): void } }; handle: unknown };
      win.handle = win.Palaver.mount({
        config,
        quickPrompts: [{ id: 'q1', title: 'Ask me', prompt: 'Ask me' }],
        target: document.getElementById('stage'),
      });
    }, config);
    await launcher(page).waitFor();
    expect(await panel(page).count()).toBe(0);
    const stage = (await page.locator('#stage').boundingBox())!;
    const button = (await launcher(page).boundingBox())!;
    expect([button.x - stage.x, button.y - stage.y]).toEqual([31, 41]); // offset inside the 1 px border
    expect(await launcher(page).evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(0, 0, 0)');
    expect(await launcher(page).locator('img').getAttribute('src')).toBe(agentAvatar());
    // openDelay: the chat opens by itself after 1.5 s.
    await panel(page).waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_450);
    const box = (await panel(page).boundingBox())!;
    expect(box.width).toBe(360);
    expect(Math.round(box.height)).toBeLessThanOrEqual(480);
    expect(
      await panel(page)
        .locator('.palaver-header')
        .evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(190, 18, 60)');
    expect(await panel(page).locator('.palaver-header img.palaver-avatar').getAttribute('src')).toBe(agentAvatar());
    expect(
      await panel(page)
        .getByRole('heading')
        .evaluate((element) => getComputedStyle(element).letterSpacing),
    ).toBe('3px');
    const bubble = panel(page).locator('.palaver-welcome .palaver-bubble');
    expect(await bubble.locator('em').textContent()).toBe('welcome');
    expect(await bubble.evaluate((element) => [getComputedStyle(element).borderRadius, getComputedStyle(element).fontSize])).toEqual([
      '4px',
      '16px',
    ]);
    expect(await panel(page).getByRole('textbox', { name: 'Message' }).getAttribute('placeholder')).toBe('Type here');
    expect(await panel(page).getByRole('button', { name: 'Ask me' }).isVisible()).toBe(true);
    await page.screenshot({ path: await artifactPath('widget-preview-mount.png') });

    await page.evaluate(() =>
      (window as unknown as { handle: { update(config: object): void } }).handle.update({ brandColor: 'rgb(37, 99, 235)' }),
    );
    expect(
      await panel(page)
        .locator('.palaver-header')
        .evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(37, 99, 235)');
    await page.close();
  });

  it('says how long to wait after a 429, and that the visitor is offline', async () => {
    const page = await context.newPage();
    await page.goto(`${site.origin}/limited`);
    await launcher(page).click();
    const input = panel(page).getByRole('textbox', { name: 'Message' });
    await input.fill('Hello there');
    await input.press('Enter');
    await gate.started();
    gate.release('Hello! How can I help?');
    await panel(page).locator('.palaver-message--assistant[data-message-id] .palaver-actions').waitFor();

    await input.fill('And another question');
    await input.press('Enter');
    const alert = panel(page).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Too many messages\. You can send again in \d+ s\./);
    expect(await input.inputValue()).toBe('And another question');
    expect(await panel(page).getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);
    await page.screenshot({ path: await artifactPath('widget-rate-limited.png') });
    await panel(page).getByRole('button', { name: 'Dismiss' }).click();

    await context.setOffline(true);
    try {
      await panel(page).getByRole('button', { name: 'Send message' }).click();
      await alert.waitFor();
      expect(await alert.textContent()).toContain('offline');
      expect(await input.inputValue()).toBe('And another question');
    } finally {
      await context.setOffline(false);
    }
    await page.close();
  });

  it('looks the same under a hostile host stylesheet, and adds no style to the host page', async () => {
    // Reduced motion and the pointer away: no animation or hover state between the two reads.
    const still = await browser.newContext({ viewport: { width: 1100, height: 760 }, reducedMotion: 'reduce' });
    const styleOf = async (path: string) => {
      const page = await still.newPage();
      await page.goto(`${site.origin}${path}`);
      const ownSheets = await page.evaluate(() => document.querySelectorAll('style, link[rel=stylesheet]').length);
      await launcher(page).click();
      await panel(page).getByRole('heading').waitFor();
      await page.mouse.move(1, 1);
      const styles = await page.evaluate(() => {
        const root = document.querySelector('palaver-widget')!.shadowRoot!;
        const pick = (selector: string) => {
          const style = getComputedStyle(root.querySelector(selector)!);
          return [
            style.display,
            style.visibility,
            style.fontFamily,
            style.fontSize,
            style.color,
            style.backgroundColor,
            style.width,
            style.borderRadius,
            style.transform,
          ].join(' | ');
        };
        return [
          '.palaver-launcher',
          '.palaver-panel',
          '.palaver-title',
          '.palaver-welcome .palaver-bubble',
          '.palaver-input',
          '.palaver-send',
        ].map(pick);
      });
      const sheetsAfter = await page.evaluate(() => document.querySelectorAll('style, link[rel=stylesheet]').length);
      await page.screenshot({ path: await artifactPath(`widget${path.replace('/', '-')}.png`) });
      await page.close();
      return { styles, ownSheets, sheetsAfter };
    };
    const clean = await styleOf('/shop');
    const hostile = await styleOf('/hostile');
    await still.close();
    expect(hostile.styles).toEqual(clean.styles);
    expect(clean.styles[0]).toContain('rgb(15, 118, 110)');
    expect(clean.sheetsAfter).toBe(clean.ownSheets);
    expect(hostile.sheetsAfter).toBe(hostile.ownSheets);
  });

  it('fits a 360 px phone, follows dark mode and reduced motion, and is keyboard operable', async () => {
    const phone = await browser.newContext({
      viewport: { width: 360, height: 740 },
      colorScheme: 'dark',
      reducedMotion: 'reduce',
      hasTouch: true,
    });
    const page = await phone.newPage();
    await page.goto(`${site.origin}/shop`);
    await launcher(page).focus();
    await page.keyboard.press('Enter');
    const box = (await panel(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(box.y + box.height).toBeLessThanOrEqual(740);
    const input = panel(page).getByRole('textbox', { name: 'Message' });
    expect(await input.isVisible()).toBe(true);
    const header = await panel(page)
      .locator('.palaver-header')
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(header).toBe('rgb(45, 212, 191)');
    expect(await panel(page).evaluate((element) => getComputedStyle(element).animationName)).toBe('none');
    await page.screenshot({ path: await artifactPath('widget-phone-dark.png') });

    // Focus starts in the input and Tab never leaves the open dialog.
    const focusInWidget = () => page.evaluate(() => document.activeElement?.tagName === 'PALAVER-WIDGET');
    expect(await focusInWidget()).toBe(true);
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInWidget()).toBe(true);
    }
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Shift+Tab');
    expect(await focusInWidget()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await panel(page).count()).toBe(0);
    const focused = await page.evaluate(() => document.querySelector('palaver-widget')!.shadowRoot!.activeElement?.className);
    expect(focused).toBe('palaver-launcher');
    await phone.close();
  });
});
