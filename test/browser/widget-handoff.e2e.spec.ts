import { describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { seriousViolations } from './support/axe';
import { useHandoffShop } from './support/handoff-shop';

// A visitor asks for a person: the widget waits for one, names the agent who claims, counts what
// the agent writes while the panel is closed, and asks for a rating once the agent hands back.
const available = chromiumAvailable();
const inWidget = { include: [['palaver-widget']] };

describe.runIf(available)(browserSuiteTitle('the widget with a person answering, in Chromium', available), { timeout: 90_000 }, () => {
  const { site, browser, agent } = useHandoffShop();

  it('waits for a person, names the agent who joins, badges their messages, and asks for a rating after the release', async () => {
    const page = await (await browser.newContext({ viewport: { width: 900, height: 760 } })).newPage();
    await page.goto(site.origin);
    const widget = page.locator('palaver-widget');
    const launcher = widget.locator('.palaver-launcher');
    const title = widget.locator('#palaver-title');
    await launcher.click();
    const input = widget.getByRole('textbox', { name: 'Message' });
    await input.fill('Can I talk to a human, please?');
    await input.press('Enter');

    // Queued: nobody is named yet.
    await expect.poll(() => title.textContent(), { timeout: 10_000 }).toBe('Waiting for a person');
    expect(await widget.getByText('A team member').count()).toBe(0);
    await expect.poll(() => input.isDisabled()).toBe(false);
    await input.fill('My chain keeps slipping.');
    await input.press('Enter');
    const own = widget.locator('.palaver-message--user').last();
    await expect.poll(() => own.getAttribute('data-message-id')).toBeTruthy();
    // The visitor's own message is in view, not under a notice.
    expect(await widget.locator('.palaver-notice').count()).toBe(0);
    const log = (await widget.locator('.palaver-log').boundingBox())!;
    const message = (await own.boundingBox())!;
    expect(message.y + message.height).toBeLessThanOrEqual(log.y + log.height + 1);
    await page.screenshot({ path: await artifactPath('widget-handoff-waiting.png') });

    // The agent claims it: their name and avatar, and a line in the transcript.
    const claimed = await agent('POST', '/queue/claim');
    expect(claimed.status).toBe(200);
    const conversationId: string = claimed.body.id;
    await expect.poll(() => title.textContent(), { timeout: 10_000 }).toBe('Ada');
    expect(await widget.locator('.palaver-header img.palaver-avatar').getAttribute('src')).toBe(`${site.origin}/ada.svg`);
    await widget.locator('.palaver-note', { hasText: 'Ada joined' }).waitFor();
    expect(await widget.locator('.palaver-note').count()).toBe(1);

    // The panel closed, the agent writes: a badge on the launcher, cleared on opening.
    await widget.getByRole('button', { name: 'Close chat' }).first().click();
    expect(await widget.locator('.palaver-badge').count()).toBe(0);
    expect((await agent('POST', `/conversations/${conversationId}/messages`, { content: 'Hi, Ada here. Which bike is it?' })).status).toBe(
      201,
    );
    await expect.poll(() => widget.locator('.palaver-badge').textContent(), { timeout: 10_000 }).toBe('1');
    expect(await launcher.getAttribute('aria-label')).toBe('Open chat with Bike helper (1 new message)');
    await page.screenshot({ path: await artifactPath('widget-handoff-badge.png') });
    await launcher.click();
    expect(await widget.locator('.palaver-badge').count()).toBe(0);
    const agentMessage = widget.locator('.palaver-message--human_agent');
    await agentMessage.waitFor();

    // Timestamps: the full date in the title, a short time shown on hover.
    expect(await agentMessage.getAttribute('title')).toMatch(/\d/);
    const time = agentMessage.locator('time.palaver-time');
    expect(Number.isNaN(Date.parse((await time.getAttribute('datetime'))!))).toBe(false);
    expect(await time.evaluate((element) => getComputedStyle(element).opacity)).toBe('0');
    await agentMessage.hover();
    await expect.poll(() => time.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    await page.screenshot({ path: await artifactPath('widget-handoff-claimed.png') });

    // Handed back to the assistant: "How did we do?"
    expect((await agent('POST', `/conversations/${conversationId}/release`)).status).toBe(200);
    const prompt = widget.getByRole('form', { name: 'Rate this conversation' });
    await prompt.waitFor({ timeout: 10_000 });
    expect(await title.textContent()).toBe('Bike helper');
    await prompt.getByRole('radio', { name: /^4 stars/ }).click();
    await prompt.getByRole('textbox', { name: 'Comment (optional)' }).fill('Quick and kind.');
    const rating = page.waitForRequest((request) => request.url().endsWith(`/v2/conversations/${conversationId}/rating`));
    await prompt.getByRole('button', { name: 'Send rating' }).click();
    expect(JSON.parse((await rating).postData()!)).toEqual({ score: 4, comment: 'Quick and kind.' });
    await widget.getByText('Thanks for your feedback!').waitFor();
    expect(await widget.getByRole('img', { name: 'You rated 4 out of 5' }).count()).toBe(1);
    await page.screenshot({ path: await artifactPath('widget-rating-thanks.png') });
    expect(await seriousViolations(page, inWidget)).toEqual([]);

    // Changed: the new score replaces the first.
    await widget.getByRole('button', { name: 'Change my rating' }).click();
    await prompt.getByRole('radio', { name: /^5 stars/ }).click();
    await prompt.getByRole('textbox', { name: 'Comment (optional)' }).fill('');
    const changed = page.waitForRequest((request) => request.url().endsWith(`/v2/conversations/${conversationId}/rating`));
    await prompt.getByRole('button', { name: 'Send rating' }).click();
    expect(JSON.parse((await changed).postData()!)).toEqual({ score: 5 });
    await widget.getByRole('img', { name: 'You rated 5 out of 5' }).waitFor();

    // The rating is remembered for this conversation after a reload.
    await page.reload();
    await page.locator('palaver-widget .palaver-launcher').click();
    await widget.getByRole('img', { name: 'You rated 5 out of 5' }).waitFor({ timeout: 10_000 });
    await widget.locator('.palaver-note', { hasText: 'Ada joined' }).waitFor();
  });

  it('asks for a rating once the visitor ends the conversation, and has no serious accessibility violations', async () => {
    const page = await (await browser.newContext({ viewport: { width: 900, height: 760 } })).newPage();
    await page.goto(site.origin);
    const widget = page.locator('palaver-widget');
    await widget.locator('.palaver-launcher').click();
    expect(await seriousViolations(page, inWidget)).toEqual([]);
    const input = widget.getByRole('textbox', { name: 'Message' });
    await input.fill('Do you sell helmets?');
    await input.press('Enter');
    await widget.locator('.palaver-message--assistant[data-status="complete"]').last().waitFor({ timeout: 10_000 });
    expect(await widget.getByRole('form', { name: 'Rate this conversation' }).count()).toBe(0);
    await widget.getByRole('button', { name: 'End conversation' }).click();
    await widget.getByRole('alertdialog').getByRole('button', { name: 'End conversation' }).click();
    const prompt = widget.getByRole('form', { name: 'Rate this conversation' });
    await prompt.waitFor();
    await page.screenshot({ path: await artifactPath('widget-rating-prompt.png') });
    expect(await seriousViolations(page, inWidget)).toEqual([]);
    await prompt.getByRole('radio', { name: /^2 stars/ }).click();
    const rating = page.waitForRequest((request) => request.url().includes('/rating'));
    await prompt.getByRole('button', { name: 'Send rating' }).click();
    expect(JSON.parse((await rating).postData()!)).toEqual({ score: 2 });
    await widget.getByText('Thanks for your feedback!').waitFor();
  });
});
