import { describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { SseClient } from '../support/sse';
import { seriousViolations } from './support/axe';
import { useHandoffShop } from './support/handoff-shop';

// Typing both ways between a visitor in the widget and the agent holding the conversation: the
// agent's typing shows "Ada is typing…" in the widget, the visitor's reaches the agents' feed,
// and nothing is sent while the conversation only waits for a person.
const available = chromiumAvailable();

describe.runIf(available)(
  browserSuiteTitle('typing indicators between the widget and an agent, in Chromium', available),
  { timeout: 90_000 },
  () => {
    const { shop, e2e, site, browser, agent } = useHandoffShop();

    it('shows the agent typing for a few seconds or until their message, and tells the agents when the visitor types', async () => {
      const page = await (await browser.newContext({ viewport: { width: 900, height: 760 } })).newPage();
      const typingPosts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && /\/v2\/conversations\/[^/]+\/typing$/.test(request.url())) typingPosts.push(request.url());
      });
      await page.goto(site.origin);
      const widget = page.locator('palaver-widget');
      const title = widget.locator('#palaver-title');
      await widget.locator('.palaver-launcher').click();
      const input = widget.getByRole('textbox', { name: 'Message' });
      await input.fill('Can I talk to a human, please?');
      await input.press('Enter');
      await expect.poll(() => title.textContent(), { timeout: 10_000 }).toBe('Waiting for a person');

      // Queued, nobody holds it: typing tells no one.
      await input.pressSequentially('My chain', { delay: 30 });
      expect(typingPosts).toEqual([]);
      await input.fill('');

      const feed = await SseClient.open(`${e2e.url}/agent/v1/events`, { authorization: `Bearer ${shop.agentToken}` });
      try {
        const claimed = await agent('POST', '/queue/claim');
        expect(claimed.status).toBe(200);
        const conversationId: string = claimed.body.id;
        await expect.poll(() => title.textContent(), { timeout: 10_000 }).toBe('Ada');

        // The visitor types a sentence: one signal (at most one per 2 s), which the agents' feed carries.
        await input.pressSequentially('My chain keeps slipping', { delay: 20 });
        await expect.poll(() => typingPosts.length).toBe(1);
        expect(typingPosts[0]).toBe(`${e2e.url}/v2/conversations/${conversationId}/typing`);
        const signal = await feed.until((event) => event.event === 'typing' && event.data.conversationId === conversationId);
        expect(signal.id).toBeNull();
        expect(signal.data).toMatchObject({ type: 'typing', conversationId, by: 'visitor' });
        await input.press('Enter');
        const own = widget.locator('.palaver-message--user').last();
        await expect.poll(() => own.getAttribute('data-message-id')).toBeTruthy();

        // The agent types: their name and avatar under the transcript, in a polite live region.
        const indicator = widget.locator('.palaver-agent-typing');
        expect(await indicator.textContent()).toBe('');
        expect((await agent('POST', `/conversations/${conversationId}/typing`)).status).toBe(204);
        await expect.poll(() => indicator.textContent(), { timeout: 10_000 }).toBe('Ada is typing…');
        expect(await indicator.getAttribute('role')).toBe('status');
        expect(await indicator.getAttribute('aria-live')).toBe('polite');
        expect(await indicator.locator('img').getAttribute('src')).toBe(`${site.origin}/ada.svg`);
        // Under the transcript, covering no message.
        const line = (await indicator.boundingBox())!;
        const log = (await widget.locator('.palaver-log').boundingBox())!;
        const last = (await own.boundingBox())!;
        expect(line.y).toBeGreaterThanOrEqual(log.y + log.height - 1);
        expect(last.y + last.height).toBeLessThanOrEqual(log.y + log.height + 1);
        await page.screenshot({ path: await artifactPath('widget-typing.png') });
        expect(await seriousViolations(page, { include: [['palaver-widget']] })).toEqual([]);

        // Their message ends it at once, well within the 5 s.
        const sentAt = Date.now();
        expect(
          (await agent('POST', `/conversations/${conversationId}/messages`, { content: 'Hi, Ada here. Which bike is it?' })).status,
        ).toBe(201);
        await widget.locator('.palaver-message--human_agent').waitFor();
        await expect.poll(() => indicator.textContent()).toBe('');
        expect(Date.now() - sentAt).toBeLessThan(4_000);

        // Typing again (past the 2 s the server waits between signals) and then stopping: gone after 5 s.
        await page.waitForTimeout(2_100);
        expect((await agent('POST', `/conversations/${conversationId}/typing`)).status).toBe(204);
        await expect.poll(() => indicator.textContent(), { timeout: 10_000 }).toBe('Ada is typing…');
        const shownAt = Date.now();
        await page.waitForTimeout(3_500);
        expect(await indicator.textContent()).toBe('Ada is typing…');
        await expect.poll(() => indicator.textContent(), { timeout: 5_000 }).toBe('');
        expect(Date.now() - shownAt).toBeLessThan(7_000);
        await page.screenshot({ path: await artifactPath('widget-typing-gone.png') });
      } finally {
        feed.close();
      }
    });
  },
);
