import { describe, expect, it } from 'vitest';
import { browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { useE2eApp, useProject } from '../support/e2e-app';
import { useFixture } from '../support/fixture';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { seriousViolations } from './support/axe';
import { fullScreenshot, openProjectPage, useAdminTab } from './support/dashboard';

// The Webhooks page in Chromium: an endpoint added (its secret shown once), a test event sent and
// seen retried then delivered, the endpoint edited and deleted.
const available = chromiumAvailable();

describe.skipIf(!available)(browserSuiteTitle('the dashboard in Chromium: webhooks', available), () => {
  const receiver = useFixture(
    () => startWebhookReceiver((_hook, hit) => (hit === 1 ? 500 : 200)),
    (started) => started.close(),
  );
  const e2e = useE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS_MS: '1500' });
  const keys = useProject(e2e, { name: 'Acme' });
  const page = useAdminTab(e2e, { reducedMotion: true });

  const shot = (name: string) => fullScreenshot(page, `dashboard-${name}.png`);

  it('adds an endpoint and shows its secret once; refuses a metadata address with the reason', async () => {
    await openProjectPage(page, e2e, keys.project.id, 'webhooks', 'Webhooks');
    await page.getByText('No endpoints yet').waitFor();

    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill('http://169.254.169.254/hook');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const alert = page.getByRole('dialog').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/link-local/);

    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByLabel('All events, those added later too').uncheck();
    await page.getByRole('checkbox', { name: 'feedback.given' }).check();
    await page.getByRole('checkbox', { name: 'conversation.started' }).check();
    await shot('webhooks-form');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByTestId('webhook-secret');
    await secret.waitFor();
    expect(await secret.textContent()).toMatch(/^whsec_/);
    await page.getByRole('row', { name: /CRM sync/ }).waitFor();
    expect(await page.getByRole('row', { name: /CRM sync/ }).textContent()).toContain('feedback.given, conversation.started');
    await shot('webhooks-created');

    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await page.getByRole('row', { name: /CRM sync/ }).waitFor();
    expect(await page.content()).not.toContain('whsec_');
  });

  it('sends a test event: the delivery fails once, is retried and shows delivered', async () => {
    await page.getByRole('button', { name: 'Send test event' }).click();
    const row = page.getByRole('row', { name: /webhook\.test/ });
    await row.waitFor();
    await expect.poll(async () => row.textContent(), { timeout: 15_000, interval: 100 }).toMatch(/pending.*1.*500/);
    await shot('webhooks-retrying');
    await expect.poll(async () => row.textContent(), { timeout: 15_000, interval: 100 }).toMatch(/succeeded.*2.*200/);
    await shot('webhooks-delivered');
    expect(receiver.received.map((h) => h.status)).toEqual([500, 200]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('edits the endpoint, rotates its secret and deletes it', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('All events, those added later too').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.getByRole('row', { name: /CRM sync/ }).textContent()).toContain('all');

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No endpoints yet').waitFor();
  });
});
