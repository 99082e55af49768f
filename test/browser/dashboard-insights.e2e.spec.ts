import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable, launchChromium } from '../support/chromium';
import { type E2eApp, http, newVisitor, startE2eApp } from '../support/e2e-app';

// The Insights page (figures, rates, unanswered questions answered in place) and the handoff and
// Q&A override settings, in Chromium against the real app with its local responder.
const available = chromiumAvailable();
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe.skipIf(!available)(browserSuiteTitle('the dashboard in Chromium: insights and reply settings', available), () => {
  let e2e: E2eApp;
  let browser: Browser;
  let page: Page;
  let projectId = '';

  const shot = async (name: string) => page.screenshot({ path: await artifactPath(`dashboard-${name}.png`), fullPage: true });
  const open = async (section: string, heading: string) => {
    await page.goto(`${e2e.url}/dashboard/projects/${projectId}/${section}`);
    await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
  };
  const seriousViolations = async (): Promise<string[]> => {
    if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(await axeSource);
    const violations = (await page.evaluate('window.axe.run({ resultTypes: ["violations"] }).then((r) => r.violations)')) as Array<{
      id: string;
      impact: string | null;
      nodes: { target: unknown[] }[];
    }>;
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  };

  beforeAll(async () => {
    e2e = await startE2eApp();
    const created = await e2e.admin.createProject({ name: 'Acme' });
    projectId = created.project.id;
    const { token } = await newVisitor(e2e.url, created.publishableKey);
    // The local responder knows nothing here: each question is declined and unanswered.
    for (const questions of [['Do you deliver to Iceland?', 'Is there a student discount?'], ['do you deliver to iceland']]) {
      const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
      for (const content of questions) await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content }, token });
      await http(`${e2e.url}/v2/conversations/${conversationId}/rating`, { body: { score: 4 }, token });
    }
    await vi.waitFor(async () => expect((await e2e.admin.call('GET', `/projects/${projectId}/insights/unanswered`)).data).toHaveLength(2), {
      timeout: 10_000,
      interval: 50,
    });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    await context.addInitScript(`sessionStorage.setItem('palaver.adminToken', ${JSON.stringify(e2e.app.adminToken)})`);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.stop();
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
    expect(await seriousViolations()).toEqual([]);
    await shot('insights');

    await page.getByRole('button', { name: 'Answer: do you deliver to iceland' }).click();
    await page.getByLabel('Answer', { exact: true }).fill('Yes, within six days.');
    await shot('insights-answering');
    expect(await seriousViolations()).toEqual([]);
    await page.getByRole('button', { name: 'Save the answer' }).click();
    await page.getByText('Added to the Q&A: “do you deliver to iceland”.').waitFor();
    await expect.poll(() => items.count()).toBe(1);
    await shot('insights-answered');
    const qnas = await e2e.admin.call('GET', `/projects/${projectId}/qnas`);
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
    expect(await seriousViolations()).toEqual([]);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    await shot('settings-replies');
    const project = await e2e.admin.call('GET', `/projects/${projectId}`);
    expect(project.handoff).toEqual({
      enabled: true,
      triggerPhrases: ['speak to Ada', 'human please'],
      offlineMessage: 'We are closed; leave your email and we will write back.',
    });
    expect(project.qnaOverride).toEqual({ enabled: true, minScore: 0.8 });
  });
});
