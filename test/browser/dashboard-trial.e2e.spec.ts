import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { http, useE2eApp, useProject } from '../support/e2e-app';
import { seriousViolations as axeViolations } from './support/axe';
import { followSidebar, fullScreenshot, openProjectPage, useAdminTab } from './support/dashboard';

// The findings of a trial of the dashboard in Chromium: keys, accessibility, forms, links.
const available = chromiumAvailable();

describe.skipIf(!available)(browserSuiteTitle('the dashboard in Chromium: the trial’s findings', available), () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e, { name: 'Aurora Shop' });
  const page = useAdminTab(e2e, { clipboard: true });
  let legacyKeyHint = '';
  let documentId = '';

  const shot = (name: string) => fullScreenshot(page, `dashboard-trial-${name}.png`);
  const open = (section: string, heading: string) => openProjectPage(page, e2e, keys.project.id, section, heading);
  const go = (section: string) => followSidebar(page, section);
  // The real widget in the preview is the widget's own (its spec checks it); the preview's box is the dashboard's.
  const seriousViolations = () => axeViolations(page, { exclude: [['palaver-widget']] });

  beforeAll(async () => {
    // A key made before publishable keys were kept: its document holds only the hash.
    const legacy = await e2e.admin.call('POST', `/projects/${keys.project.id}/keys`, {
      type: 'publishable',
      name: 'Old widget',
      assistantId: keys.project.defaultAssistantId,
      allowedOrigins: [],
    });
    legacyKeyHint = legacy.hint;
    await e2e.app.infra.documents.collection('keys').updateOne({ _id: legacy.id }, { $unset: { key: '' } });
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, {
      quickPrompts: [{ title: 'Returns', prompt: 'What is the return window?' }],
    });
    await e2e.admin.call('POST', `/projects/${keys.project.id}/qnas`, {
      question: 'What is the return window?',
      answer: 'You can return any item within 45 days of delivery.',
    });
    const document = await e2e.admin.call('POST', `/projects/${keys.project.id}/documents`, {
      title: 'Shipping to Iceland',
      url: 'https://shop.example/help/shipping',
      content: 'Parcels to Iceland travel with Polar Express and arrive within 6 working days.',
    });
    documentId = document.id;
  });

  it('lists a publishable key whole, and copies an embed snippet that carries it', async () => {
    await open('keys', 'Keys');
    const row = page.getByRole('row', { name: /widget/ }).first();
    expect(await row.textContent()).toContain(keys.publishableKey);
    const oldRow = page.getByRole('row', { name: /Old widget/ });
    expect(await oldRow.textContent()).toContain(`…${legacyKeyHint}`);
    expect(await oldRow.textContent()).toMatch(/create a new key/i);
    const privateRow = page.getByRole('row', { name: /backend/ });
    expect(await privateRow.textContent()).toMatch(/…[0-9A-Za-z]{4}/);
    expect(await privateRow.textContent()).not.toMatch(/sk_[0-9A-Za-z]{20,}/);
    await shot('keys');

    await go('Widget');
    await page.locator('select[name="embedKey"]').selectOption({ label: `widget (…${keys.publishableKey.slice(-4)})` });
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toBe(`<script src="${e2e.url}/widget.js" data-key="${keys.publishableKey}" async></script>`);
  });

  it('offers no snippet for a key whose full value was not kept, and says to create a new key', async () => {
    await open('widget', 'Widget');
    await page.locator('select[name="embedKey"]').selectOption({ label: `Old widget (…${legacyKeyHint})` });
    await page.getByText(/create a new key to get a copyable snippet/i).waitFor();
    expect(await page.getByRole('button', { name: 'Copy snippet' }).count()).toBe(0);
    expect(await page.locator('pre.snippet').count()).toBe(0);
  });

  it('has no serious accessibility violations on the keys, widget and documents pages', async () => {
    await open('keys', 'Keys');
    expect(await seriousViolations()).toEqual([]);
    await open('widget', 'Widget');
    await expect.poll(() => page.getByTestId('widget-preview').getAttribute('data-mode')).not.toBe('loading');
    expect(await seriousViolations()).toEqual([]);
    await open('documents', 'Documents');
    await page.getByRole('row', { name: /Shipping to Iceland/ }).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('warns when a widget colour gives white text too little contrast, and stops when it is fixed', async () => {
    await open('widget', 'Widget');
    const brand = page.locator('input[name="brandColor"]');
    await brand.fill('#fde047');
    const warning = page.getByTestId('contrast-brandColor');
    await warning.waitFor();
    expect(await warning.textContent()).toMatch(/contrast .*:1.*4\.5:1/);
    expect(await brand.getAttribute('aria-describedby')).toBe(await warning.getAttribute('id'));
    await shot('widget-contrast');
    await brand.fill('#1d4ed8');
    await warning.waitFor({ state: 'detached' });
  });

  it('draws the preview at the configured widget width', async () => {
    await open('widget', 'Widget');
    const preview = page.getByTestId('widget-preview');
    await expect.poll(() => preview.getAttribute('data-mode')).not.toBe('loading');
    const panel = preview.locator('.palaver-panel, [data-testid="preview-panel"]');
    const width = () => panel.evaluate((el) => el.getBoundingClientRect().width);
    await page.locator('input[name="displayName"]').fill('Aurora Shop’s friendly assistant');
    await page.locator('input[name="width"]').fill('400');
    await expect.poll(width).toBeCloseTo(400, 0);
    await page.locator('input[name="width"]').fill('460');
    await expect.poll(width).toBeCloseTo(460, 0);
    await page.evaluate('window.scrollTo(0, 0)');
    await shot('widget');
  });

  it('asks before leaving the widget page with unsaved edits, in the app and when the tab goes', async () => {
    await open('widget', 'Widget');
    await page.locator('input[name="displayName"]').fill('Unsaved name');
    const asked = new Promise<string>((resolve) => {
      page.once('dialog', (dialog) => {
        resolve(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
    });
    await go('Keys');
    expect(await asked).toMatch(/^confirm: .*unsaved/i);
    expect(page.url()).toContain('/widget');
    expect(await page.locator('input[name="displayName"]').inputValue()).toBe('Unsaved name');

    page.once('dialog', (dialog) => void dialog.accept());
    await go('Keys');
    await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();

    // Saved edits leave without a question.
    await go('Widget');
    await page.locator('input[name="displayName"]').fill('Aurora helper');
    await page.getByRole('button', { name: 'Save widget' }).click();
    await page.getByText('Saved: the widget shows it on its next load.').waitFor();
    await go('Keys');
    await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();

    // Closing or reloading the tab: the browser's own beforeunload question.
    const tab = await page.context().newPage();
    await tab.goto(`${e2e.url}/dashboard/projects/${keys.project.id}/widget`);
    // Typed with real key events: Chromium asks on unload only after the visitor interacted with the page.
    await tab.locator('input[name="displayName"]').click();
    await tab.keyboard.type(' edited');
    const unload = new Promise<string>((resolve) => {
      tab.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      });
    });
    await tab.close({ runBeforeUnload: true });
    expect(await unload).toBe('beforeunload');
  });

  it('closes an edit dialog with Cancel without saving', async () => {
    await open('documents', 'Documents');
    await page.getByRole('button', { name: 'Edit Shipping to Iceland' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit document' });
    await dialog.getByLabel('Title').fill('Changed and cancelled');
    await shot('edit-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await e2e.admin.call('GET', `/projects/${keys.project.id}/documents/${documentId}`)).title).toBe('Shipping to Iceland');

    await go('Q&A');
    await page.getByRole('button', { name: 'Edit “What is the return window?”' }).click();
    const qnaDialog = page.getByRole('dialog', { name: 'Edit Q&A entry' });
    await qnaDialog.getByLabel('Answer').fill('Changed and cancelled');
    await qnaDialog.getByRole('button', { name: 'Cancel' }).click();
    await qnaDialog.waitFor({ state: 'hidden' });
    const qnas = await e2e.admin.call('GET', `/projects/${keys.project.id}/qnas`);
    expect(qnas.data[0].answer).toBe('You can return any item within 45 days of delivery.');
  });

  it('has a favicon that loads', async () => {
    await open('keys', 'Keys');
    const href = await page.locator('link[rel~="icon"]').getAttribute('href');
    expect(href).toBeTruthy();
    const icon = await http(new URL(href!, page.url()).href);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\//);
  });

  it('renders a stored javascript: document URL as text, never as a link', async () => {
    // Written under the API's validation, as data stored before it refused such URLs.
    const hostile = ' JavaScript:document.title="pwned"';
    await e2e.app.infra.documents.collection('documents').updateOne({ _id: documentId }, { $set: { url: hostile } });
    await open('documents', 'Documents');
    const row = page.getByRole('row', { name: /Shipping to Iceland/ });
    expect(await row.textContent()).toContain('JavaScript:document.title="pwned"');
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((href) => !/^(https?:|\/|#)/i.test(href.trim()))).toEqual([]);
    await row.getByText('JavaScript:document.title="pwned"').click();
    expect(await page.title()).not.toBe('pwned');
    await shot('documents');
  });
});
