import { describe, expect, it } from 'vitest';
import { makePdf } from '../../services/search/src/testing/office-files';
import { browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { useE2eApp, useProject } from '../support/e2e-app';
import { useFixture } from '../support/fixture';
import { type StaticPage, startStaticSite } from '../support/static-site';
import { seriousViolations } from './support/axe';
import { fullScreenshot, openProjectPage, useAdminTab } from './support/dashboard';

// The Sources page (a website crawled while the owner watches), the PDF upload on Documents, and
// the identity secret on Settings, in Chromium against the real app and a local "customer site".
const available = chromiumAvailable();

const html = (title: string, body: string): StaticPage => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
});

describe.skipIf(!available)(browserSuiteTitle('the dashboard in Chromium: sources, file upload, identity secret', available), () => {
  const pages: Record<string, StaticPage> = {
    '/': html(
      'Acme help',
      '<p>Acme ships to Iceland in six days.</p><a href="/returns">Returns</a> <a href="/warranty">Warranty</a> <a href="/broken">Broken</a> <a href="/faq">FAQ</a>',
    ),
    '/returns': html('Returns', '<p>Return any item within 45 days.</p>'),
    '/warranty': html('Warranty', '<p>Every gizmo has a three year warranty.</p>'),
    '/faq': html('FAQ', '<p>Gift cards never expire.</p>'),
    '/broken': { ...html('Oops', '<p>Server error</p>'), status: 500 },
  };
  const site = useFixture(
    () => startStaticSite(pages),
    (started) => started.close(),
  );
  // A delay between requests so the crawl lasts long enough to be watched.
  const e2e = useE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', CRAWL_DELAY_MS: '300' });
  const keys = useProject(e2e, { name: 'Acme' });
  // Reduced motion: a screenshot shows the bar's final width.
  const page = useAdminTab(e2e, { clipboard: true, reducedMotion: true });

  const shot = (name: string) => fullScreenshot(page, `dashboard-${name}.png`);
  const open = (section: string, heading: string) => openProjectPage(page, e2e, keys.project.id, section, heading);
  const bar = () => page.getByRole('progressbar');
  const pageRow = (path: string) => page.getByRole('row', { name: new RegExp(`${site.origin}${path}$|${site.origin}${path}\\s`) });

  it('refuses a URL the crawler may not fetch with the API’s message', async () => {
    await open('sources', 'Sources');
    await page.getByText('No sources yet').waitFor();
    await page.getByRole('button', { name: 'Add a source' }).click();
    await page.getByLabel('Start URL').fill('http://169.254.169.254/latest/meta-data/');
    await page.getByRole('button', { name: 'Add and crawl' }).click();
    const alert = page.getByRole('dialog').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/link-local/);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });

  it('adds a website and shows its crawl progressing to done, then each page with a failed one’s error', async () => {
    await page.getByRole('button', { name: 'Add a source' }).click();
    await page.getByLabel('Start URL').fill(`${site.origin}/`);
    await page.getByRole('button', { name: 'Add and crawl' }).click();
    await page.getByRole('heading', { name: 'Source', exact: true, level: 1 }).waitFor();
    await bar().waitFor();
    await shot('source-crawling');
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          const state = `${await bar().getAttribute('data-state')} ${await bar().getAttribute('aria-valuenow')}`;
          if (seen.at(-1) !== state) seen.push(state);
          return state;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe('done 100');
    // Watched while it crawled, not only at the end.
    expect(seen[0]).toMatch(/^crawling /);
    expect(Number(seen.find((s) => s.startsWith('crawling'))!.split(' ')[1])).toBeLessThan(100);
    expect(await bar().getAttribute('aria-valuetext')).toBe('5 of 5 pages, done');
    await shot('source');

    const broken = pageRow('/broken');
    await broken.waitFor();
    expect(await broken.textContent()).toContain('HTTP 500');
    expect(await broken.textContent()).toContain('failed');
    const link = broken.getByRole('link', { name: `${site.origin}/broken` });
    expect(await link.getAttribute('href')).toBe(`${site.origin}/broken`);
    expect(await pageRow('/returns').textContent()).toContain('indexed');

    await page.getByLabel('Show').selectOption('failed');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByLabel('Show').selectOption('');
  });

  it('syncs again: the fixed page is indexed; the sources list shows it ready', async () => {
    pages['/broken'] = html('Fixed', '<p>Now it works.</p>');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByRole('button', { name: 'Crawling…' }).waitFor();
    await expect.poll(() => bar().getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    await expect.poll(async () => pageRow('/broken').textContent(), { timeout: 10_000 }).toContain('indexed');
    expect(await pageRow('/returns').textContent()).toContain('unchanged');

    await open('sources', 'Sources');
    const row = page.getByRole('row', { name: new RegExp(site.origin) });
    expect(await row.textContent()).toContain('Ready');
    expect(await seriousViolations(page)).toEqual([]);
    await shot('sources');
  });

  it('changes a source’s settings, and deletes it with its documents after a confirmation', async () => {
    await page.getByRole('link', { name: `Open ${site.origin}/` }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Refresh').selectOption('24');
    await page.getByLabel('Never these paths').fill('/faq');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Every day', { exact: true }).waitFor();
    await page.getByText('/faq', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    expect((await e2e.admin.call('GET', `/projects/${keys.project.id}/documents`)).total).toBe(5);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete source' }).click();
    await page.getByRole('heading', { name: 'Sources', exact: true, level: 1 }).waitFor();
    await page.getByText('No sources yet').waitFor();
    expect((await e2e.admin.call('GET', `/projects/${keys.project.id}/documents`)).total).toBe(0);
  });

  it('uploads a PDF on the Documents page and lists it; an unreadable one shows the API’s error', async () => {
    await open('documents', 'Documents');
    const file = page.getByLabel('PDF or DOCX file');
    await file.setInputFiles({
      name: 'manual.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf(['The device battery lasts 36 hours on one charge.'], 'Device manual'),
    });
    await page.getByLabel('URL', { exact: true }).last().fill('https://acme.example/manual.pdf');
    await page.getByRole('button', { name: 'Upload file' }).click();
    await page.getByText(/Added “Device manual”/).waitFor();
    await page.getByRole('row', { name: /Device manual/ }).waitFor();
    expect(await page.getByRole('row', { name: /Device manual/ }).textContent()).toContain('https://acme.example/manual.pdf');

    await shot('documents-upload');

    await file.setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') });
    await page.getByRole('button', { name: 'Upload file' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('the file cannot be read');

    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await expect.poll(() => alert.textContent()).toContain('is not a PDF or DOCX file');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('creates the identity secret, shows it once, rotates it, and requires verified visitors', async () => {
    await open('settings', 'Settings');
    const required = page.getByRole('switch', { name: 'Require verified visitors' });
    expect(await required.isDisabled()).toBe(true);
    await page.getByText('Create a secret first').waitFor();

    await page.getByRole('button', { name: 'Create secret' }).click();
    const shown = page.getByTestId('identity-secret');
    await shown.waitFor();
    const first = (await shown.locator('code').textContent()) ?? '';
    expect(first).toMatch(/^idv_[0-9A-Za-z]{20,}$/);
    expect(await shown.textContent()).toContain('will not be shown again');
    await page.getByRole('button', { name: 'Copy secret' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(first);

    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText(/Secret created/).waitFor();
    expect(await page.getByTestId('identity-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(first);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await shown.waitFor();
    const second = (await shown.locator('code').textContent()) ?? '';
    expect(second).toMatch(/^idv_/);
    expect(second).not.toBe(first);
    expect(await shown.textContent()).toMatch(/previous secret keeps verifying tokens until/);

    expect(await required.isDisabled()).toBe(false);
    await required.check();
    await expect.poll(async () => (await e2e.admin.call('GET', `/projects/${keys.project.id}`)).identityVerification.required).toBe(true);
    expect(await required.getAttribute('aria-checked')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await shot('settings-identity');

    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await required.isChecked()).toBe(true);
    await required.uncheck();
    await expect.poll(async () => (await e2e.admin.call('GET', `/projects/${keys.project.id}`)).identityVerification.required).toBe(false);
  });
});
