import type { Browser, Page } from 'playwright-core';
import { artifactPath, launchChromium } from '../../support/chromium';
import type { E2eApp } from '../../support/e2e-app';
import { useFixture } from '../../support/fixture';

/**
 * Chromium, for the tests of a describe block, with a tab of the dashboard signed in with the
 * app's admin token (kept in the tab's session storage, as the sign-in form keeps it).
 * `clipboard`: copy buttons may write and the test may read; `reducedMotion`: no transitions, so a
 * screenshot shows their end.
 */
export const useAdminTab = (e2e: E2eApp, options: { clipboard?: boolean; reducedMotion?: boolean } = {}): Page =>
  useFixture(
    async () => {
      const browser = await launchChromium();
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        ...(options.clipboard ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
        ...(options.reducedMotion ? { reducedMotion: 'reduce' as const } : {}),
      });
      await context.addInitScript(`sessionStorage.setItem('palaver.adminToken', ${JSON.stringify(e2e.app.adminToken)})`);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    },
    (page) => page.context().browser()!.close(),
  );

/** A tab with cookies of its own, not signed in; what Chromium refuses under the page's CSP is collected into `cspViolations`. */
export const signedOutTab = async (browser: Browser, cspViolations: string[]): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(10_000);
  collectCspViolations(page, cspViolations);
  return page;
};

/** Loads a project's page by its address and waits for its heading. */
export const openProjectPage = async (page: Page, e2e: E2eApp, projectId: string, section: string, heading: string): Promise<void> => {
  await page.goto(`${e2e.url}/dashboard/projects/${projectId}/${section}`);
  await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
};

/** Follows the project sidebar's link to `section`, as a person would. */
export const followSidebar = (page: Page, section: string): Promise<void> =>
  page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: section, exact: true }).click();

/** A full-page screenshot into the test artifacts. */
export const fullScreenshot = async (page: Page, name: string): Promise<void> => {
  await page.screenshot({ path: await artifactPath(name), fullPage: true });
};

/** Collects what Chromium refuses under the page's Content-Security-Policy, as the console reports it. */
export const collectCspViolations = (page: Page, into: string[]): void => {
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) into.push(message.text());
  });
};
