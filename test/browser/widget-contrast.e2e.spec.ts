import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEFAULT_CHAT_WIDGET_CONFIG as DEFAULTS } from '@palaver/contracts/widget-defaults';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, browserSuiteTitle, chromiumAvailable } from '../support/chromium';
import { GatedChatModel } from '../support/gated-chat-model';
import { useWidgetShop } from './support/widget-shop';

const available = chromiumAvailable();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One colour for every brand field, as a site owner with one house colour sets them. */
const brand = (color: string) => ({
  brandColor: color,
  brandColorDark: color,
  userMessageBubbleColor: color,
  userMessageBubbleColorDark: color,
});
const BRANDS = {
  light: brand('rgb(45, 212, 191)'),
  dark: brand('rgb(15, 118, 110)'),
  yellow: brand('#fde047'),
  navy: brand('#1e3a8a'),
  // The defaults of a project that set none.
  default: {
    brandColor: DEFAULTS.brandColor,
    brandColorDark: DEFAULTS.brandColorDark,
    userMessageBubbleColor: DEFAULTS.userMessageBubbleColor,
    userMessageBubbleColorDark: DEFAULTS.userMessageBubbleColorDark,
  },
} as const;
const SCHEMES = ['light', 'dark'] as const;

const widget = (page: Page) => page.locator('palaver-widget');
const panel = (page: Page) => widget(page).getByRole('dialog');

interface ContrastViolation {
  impact: string | null;
  /** The element and what axe measured, e.g. `.palaver-subtitle: contrast of 4.19 (foreground color: …)`. */
  where: string;
}

/** axe-core's colour-contrast rule on the widget (it reads open shadow roots). */
const contrastViolations = (page: Page): Promise<ContrastViolation[]> =>
  page.evaluate(async () => {
    const axe = (window as unknown as { axe: any }).axe;
    const result = await axe.run(
      { include: [['palaver-widget']] },
      { runOnly: { type: 'rule', values: ['color-contrast', 'color-contrast-enhanced'] }, resultTypes: ['violations'] },
    );
    return result.violations
      .filter((violation: any) => violation.id === 'color-contrast')
      .flatMap((violation: any) =>
        violation.nodes.map((node: any) => ({
          impact: node.impact,
          where: `${node.target.flat().join(' ')}: ${/contrast of .*?\)/.exec(node.failureSummary ?? '')?.[0] ?? node.failureSummary}`,
        })),
      );
  });

describe.runIf(available)(
  browserSuiteTitle('the widget’s colour contrast (axe-core), light and dark, light and dark brands', available),
  { timeout: 90_000 },
  () => {
    const gate = new GatedChatModel();
    const pages: Record<string, { type: string; body: string }> = {};
    let apiKey: string;

    const { e2e, site, browser, shop } = useWidgetShop({ name: 'Contrast shop', pages, chatModel: gate });
    beforeAll(async () => {
      const { project, publishableKey } = shop.keys;
      apiKey = publishableKey;
      await e2e.admin.call('PATCH', `/projects/${project.id}`, {
        chatWidgetConfig: { displayName: 'Contrast helper', welcomeMessage: 'Hello! See [our hours](https://example.com/hours).' },
        quickPrompts: [{ title: 'Opening hours', prompt: 'When are you open?' }],
      });
      pages['/contrast'] = {
        type: 'text/html',
        body: `<!doctype html><html><head><meta charset="utf-8"><title>Contrast</title></head><body><h1>Contrast</h1>
<script src="${e2e.url}/widget.js" data-preview></script></body></html>`,
      };
    });

    it('has no serious colour-contrast violation before and after a reply, in every brand and colour scheme', async () => {
      // Reduced motion: axe reads the colours at rest, not halfway through the panel's fade-in.
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${site.origin}/contrast`);
      await page.waitForFunction(() => 'Palaver' in window);
      await page.addScriptTag({ content: AXE_SOURCE });
      await page.evaluate((apiKey) => {
        const win = window as unknown as { Palaver: { mount(options: object): unknown }; handle: unknown };
        win.handle = win.Palaver.mount({ apiKey, open: true });
      }, apiKey);
      await panel(page).getByRole('button', { name: 'Opening hours' }).waitFor();

      const found: Record<string, string[]> = {};
      const checkAll = async (stage: string) => {
        for (const [name, config] of Object.entries(BRANDS)) {
          await page.evaluate(
            (config) => (window as unknown as { handle: { update(config: object): void } }).handle.update(config),
            config,
          );
          for (const scheme of SCHEMES) {
            await page.emulateMedia({ colorScheme: scheme });
            const violations = (await contrastViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
            if (violations.length > 0) found[`${stage}, ${name} brand, ${scheme} mode`] = violations.map((v) => v.where);
            if (name === 'light') await page.screenshot({ path: await artifactPath(`widget-contrast-${stage}-light-brand-${scheme}.png`) });
          }
        }
      };
      await checkAll('welcome');

      const input = panel(page).getByRole('textbox', { name: 'Message' });
      await input.fill('When are you open?');
      await input.press('Enter');
      await gate.started();
      gate.release('We are open **every day**; see [the calendar](https://example.com/calendar) and `9-17`.');
      await panel(page).locator('.palaver-message--assistant[data-status="complete"] .palaver-actions').waitFor();
      await checkAll('reply');
      await context.close();
      expect(found).toEqual({});
    });
  },
);
