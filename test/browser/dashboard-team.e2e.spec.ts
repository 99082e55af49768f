import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuiteTitle, chromiumAvailable, useChromium } from '../support/chromium';
import { http, newConversation, useE2eApp, useProject } from '../support/e2e-app';
import { fullScreenshot, signedOutTab } from './support/dashboard';

const available = chromiumAvailable();
const OWNER_PASSWORD = 'violet-kettle-92-harbour';
const AGENT_PASSWORD = 'amber-lantern-47-meadow';

describe.skipIf(!available)(browserSuiteTitle('a team in the dashboard, in Chromium', available), () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e, { name: 'Aurora Shop' });
  const browser = useChromium();
  let owner: Page;
  let colleague: Page;
  let invitationUrl = '';
  const cspViolations: string[] = [];

  const shot = (page: Page, name: string) => fullScreenshot(page, `team-${name}.png`);
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Project' });

  beforeAll(async () => {
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, { handoff: { enabled: true } });
    // Two people, two browsers' worth of cookies.
    owner = await signedOutTab(browser, cspViolations);
    colleague = await signedOutTab(browser, cspViolations);
  });

  it('on first run with the admin token, offers to create the first owner', async () => {
    await owner.goto(`${e2e.url}/dashboard/`);
    await owner.getByRole('button', { name: 'Use the admin token' }).click();
    await owner.getByLabel('Admin token').fill('test-admin-token');
    await owner.keyboard.press('Enter');
    await owner.getByRole('heading', { name: 'Create the first owner' }).waitFor();
    await owner.getByRole('button', { name: 'Create the first owner…' }).click();
    await owner.getByLabel("Owner's name").fill('Olivia Owner');
    await owner.getByLabel("Owner's email").fill('olivia@example.com');
    await owner.getByLabel("Owner's password").fill(OWNER_PASSWORD);
    await shot(owner, 'first-owner');
    await owner.getByRole('button', { name: 'Create the owner' }).click();
    await owner.getByRole('heading', { name: 'Create the first owner' }).waitFor({ state: 'detached' });
    await owner.getByRole('button', { name: 'Sign out' }).click();
  });

  it('the owner signs in with email and password and invites a colleague as agent', async () => {
    await owner.getByLabel('Email').fill('olivia@example.com');
    await owner.getByLabel('Password').fill(OWNER_PASSWORD);
    await owner.getByRole('button', { name: 'Sign in', exact: true }).click();
    await owner.getByText('Olivia Owner').waitFor();
    const cookies = await owner.context().cookies();
    expect(cookies.find((c) => c.name === 'palaver_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(await owner.evaluate('document.cookie')).toBe('');
    await owner.getByRole('link', { name: /Aurora Shop/ }).click();
    await nav(owner).getByRole('link', { name: 'Members', exact: true }).click();
    await owner.getByRole('heading', { name: 'Invite a colleague' }).waitFor();
    await owner.getByLabel('Email').fill('alex@example.com');
    await owner.getByLabel('Name', { exact: true }).fill('Alex Agent');
    await owner.locator('select[name="role"]').selectOption('agent');
    await owner.getByRole('button', { name: 'Invite' }).click();
    invitationUrl = (await owner.getByTestId('invitation-url').textContent()) ?? '';
    expect(invitationUrl).toMatch(/\/dashboard\/accept-invite\?token=inv_/);
    await owner.getByRole('cell', { name: 'alex@example.com' }).waitFor();
    await shot(owner, 'members');
  });

  it('the colleague accepts, lands in the inbox as themself, sees only what an agent may, and answers a visitor', async () => {
    await colleague.goto(invitationUrl);
    await colleague.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await colleague.getByLabel('Password', { exact: true }).fill(AGENT_PASSWORD);
    await colleague.getByLabel('Password again').fill(AGENT_PASSWORD);
    await colleague.getByRole('button', { name: 'Set password and sign in' }).click();
    await colleague.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(colleague.url()).toBe(`${e2e.url}/dashboard/projects/${keys.project.id}/inbox`);
    const links = await nav(colleague).getByRole('link').allTextContents();
    expect(links.filter((l) => !l.includes('All projects'))).toEqual(['Conversations', 'Inbox']);
    await colleague.getByText('Working as').waitFor();
    expect(await colleague.getByText('Alex Agent').count()).toBeGreaterThan(0);
    await colleague.locator('.live-live').waitFor();

    const { token, conversationId } = await newConversation(e2e.url, keys.publishableKey, 'device-team');
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'Can I talk to a human please?' },
      token,
    });
    await colleague.getByTestId('queue').getByText('Can I talk to a human please?').first().waitFor();
    await colleague.getByRole('button', { name: 'Claim next' }).click();
    await colleague.getByLabel('Reply', { exact: true }).fill('Hi, Alex here. How can I help?');
    await colleague.getByRole('button', { name: 'Send reply' }).click();
    const seen = async () => {
      const got = await http(`${e2e.url}/v2/conversations/${conversationId}`, { token });
      return got.body.messages.map((m: { role: string; parts: { text: string }[] }) => `${m.role}: ${m.parts[0]?.text}`);
    };
    await expect.poll(seen).toContain('human_agent: Hi, Alex here. How can I help?');
    await shot(colleague, 'agent-inbox');
    // An agent's cookie opens no key.
    const keysStatus = await colleague.evaluate(async (id) => (await fetch(`/admin/v1/projects/${id}/keys`)).status, keys.project.id);
    expect(keysStatus).toBe(403);
  });

  it('the owner reads who did what in the audit log, filtered', async () => {
    await nav(owner).getByRole('link', { name: 'Audit log', exact: true }).click();
    const table = owner.getByTestId('audit-table');
    await table.getByText('member.added').first().waitFor();
    await owner.getByLabel('Action or resource').fill('member');
    await owner.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).every((row) => row.includes('member.'))).toBe(true);
    expect(await table.getByText('olivia@example.com').count()).toBeGreaterThan(0);
    await shot(owner, 'audit');
  });

  it('broke no rule of the Content-Security-Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
