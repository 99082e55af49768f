import { beforeAll, describe, expect, it, vi } from 'vitest';
import { browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { http, newVisitor, useE2eApp, useProject } from '../support/e2e-app';
import { seriousViolations } from './support/axe';
import { fullScreenshot, openProjectPage, useAdminTab } from './support/dashboard';

// The Insights page (figures, rates, unanswered questions answered in place) and the handoff and
// Q&A override settings, in Chromium against the real app with its local responder.
const available = chromiumAvailable();

describe.skipIf(!available)(browserSuiteTitle('the dashboard in Chromium: insights and reply settings', available), () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e, { name: 'Acme' });
  const page = useAdminTab(e2e, { reducedMotion: true });

  const shot = (name: string) => fullScreenshot(page, `dashboard-${name}.png`);
  const open = (section: string, heading: string) => openProjectPage(page, e2e, keys.project.id, section, heading);

  beforeAll(async () => {
    const { token } = await newVisitor(e2e.url, keys.publishableKey);
    // The local responder knows nothing here: each question is declined and unanswered.
    for (const questions of [['Do you deliver to Iceland?', 'Is there a student discount?'], ['do you deliver to iceland']]) {
      const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
      for (const content of questions) await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content }, token });
      await http(`${e2e.url}/v2/conversations/${conversationId}/rating`, { body: { score: 4 }, token });
    }
    await vi.waitFor(
      async () => expect((await e2e.admin.call('GET', `/projects/${keys.project.id}/insights/unanswered`)).data).toHaveLength(2),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
  });

  it('shows the figures and the unanswered questions, and answers one in place', async () => {
    await open('insights', 'Insights');
    await page.getByText('conversations', { exact: true }).waitFor();
    const stats = await page.locator('.stat').allInnerTexts();
    expect(stats.map((s) => s.replace(/\s+/g, ' '))).toEqual([
      '2 conversations',
      '6 messages',
      '2 resolved without a person',
      '4.0 CSAT (2 ratings)',
      '— median first agent reply',
    ]);
    await expect.poll(() => page.getByRole('img', { name: 'Rates of the period' }).count()).toBe(1);
    const items = page.locator('.item-list > li');
    await expect.poll(() => items.count()).toBe(2);
    await expect.poll(() => items.first().textContent()).toContain('asked 2 times');
    expect(await seriousViolations(page)).toEqual([]);
    await shot('insights');

    await page.getByRole('button', { name: 'Answer: do you deliver to iceland' }).click();
    await page.getByLabel('Answer', { exact: true }).fill('Yes, within six days.');
    await shot('insights-answering');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save the answer' }).click();
    await page.getByText('Added to the Q&A: “do you deliver to iceland”.').waitFor();
    await expect.poll(() => items.count()).toBe(1);
    await shot('insights-answered');
    const qnas = await e2e.admin.call('GET', `/projects/${keys.project.id}/qnas`);
    expect(qnas.data.map((q: { question: string; answer: string }) => [q.question, q.answer])).toEqual([
      ['do you deliver to iceland', 'Yes, within six days.'],
    ]);
  });

  it('switches handoff and the Q&A override on Settings', async () => {
    await open('settings', 'Settings');
    await page.getByLabel('Visitors can ask for a person', { exact: false }).check();
    await page.getByLabel('Trigger phrases').fill('speak to Ada\nhuman please');
    await page.getByLabel('When nobody can answer').fill('We are closed; leave your email and we will write back.');
    await page.getByLabel('Minimum similarity').fill('0.8');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    await shot('settings-replies');
    const project = await e2e.admin.call('GET', `/projects/${keys.project.id}`);
    expect(project.handoff).toEqual({
      enabled: true,
      triggerPhrases: ['speak to Ada', 'human please'],
      offlineMessage: 'We are closed; leave your email and we will write back.',
    });
    expect(project.qnaOverride).toEqual({ enabled: true, minScore: 0.8 });
  });
});
