import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/accounts';
import { browserSuiteTitle, chromiumAvailable, launchChromium } from '../support/chromium';
import { type E2eApp, http, startE2eApp } from '../support/e2e-app';
import { fullScreenshot } from './support/dashboard';

// Settings' danger zone in Chromium: an admin of the project does not see it; the owner deletes
// the project once its name is typed, and lands on the projects list without it.
const available = chromiumAvailable();

describe.skipIf(!available)(browserSuiteTitle('the dashboard in Chromium: deleting a project', available), () => {
  let e2e: E2eApp;
  let browser: Browser;
  let projectId = '';

  beforeAll(async () => {
    e2e = await startE2eApp();
    projectId = (await e2e.admin.createProject({ name: 'Doomed Shop' })).project.id;
    await e2e.admin.createProject({ name: 'Kept Shop' });
    for (const [email, role] of [
      ['olga@example.com', 'owner'],
      ['adam@example.com', 'admin'],
    ] as const) {
      const user = await e2e.admin.call('POST', '/users', { email, name: email.split('@')[0], password: PASSWORD });
      await e2e.admin.call('PUT', `/projects/${projectId}/members/${user.id}`, { role });
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.stop();
  });

  const signedIn = async (email: string): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${e2e.url}/dashboard/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  };

  const openSettings = async (page: Page) => {
    await page.goto(`${e2e.url}/dashboard/projects/${projectId}/settings`);
    await page.getByRole('heading', { name: 'Settings', exact: true, level: 1 }).waitFor();
    await page
      .getByRole('heading', { name: 'Identity verification' })
      .or(page.getByRole('button', { name: 'Save settings' }))
      .first()
      .waitFor();
  };

  it('hides the danger zone from an admin of the project', async () => {
    const page = await signedIn('adam@example.com');
    await openSettings(page);
    expect(await page.getByRole('heading', { name: 'Danger zone' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete project' }).count()).toBe(0);
    await page.context().close();
  });

  it('the owner types the name to confirm, deletes it, and lands on the projects list', async () => {
    const page = await signedIn('olga@example.com');
    await openSettings(page);
    await page.getByRole('heading', { name: 'Danger zone' }).waitFor();
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete Doomed Shop?' }).waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Project name').fill('Doomed');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Project name').fill('Doomed Shop');
    expect(await confirm.isEnabled()).toBe(true);
    await fullScreenshot(page, 'dashboard-delete-project.png');
    await confirm.click();

    await page.waitForURL(`${e2e.url}/dashboard/`);
    await page.getByRole('heading', { name: 'Your projects' }).or(page.getByText('No projects yet')).first().waitFor();
    expect(await page.getByText('Doomed Shop').count()).toBe(0);
    const read = await http(`${e2e.url}/admin/v1/projects/${projectId}`, { token: 'test-admin-token' });
    expect([read.status, read.body.error.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
    await page.context().close();
  });
});
