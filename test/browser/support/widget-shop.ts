import type { ChatModel, Config } from '@palaver/platform';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../support/chromium';
import { type E2eApp, startE2eApp } from '../../support/e2e-app';
import { lazy, useFixture } from '../../support/fixture';
import { type StaticPage, type StaticSite, startStaticSite } from '../../support/static-site';

/** A customer's website on its own origin, the app, a project whose publishable key allows that site, and Chromium to visit it. */
export interface WidgetShop {
  site: StaticSite;
  e2e: E2eApp;
  browser: Browser;
  /** The project, its publishable key (limited to the site's origin) and its private key. */
  keys: Awaited<ReturnType<E2eApp['admin']['createProject']>>;
  /** Stops Chromium, the site and the app. */
  close(): Promise<void>;
}

/**
 * Starts a widget spec's world. `pages` is the site's (read on every request): the spec adds its
 * host pages once it knows the app's address and the key.
 */
export const startWidgetShop = async (options: {
  name: string;
  pages: Record<string, StaticPage>;
  env?: Partial<Record<keyof Config, string>>;
  chatModel?: ChatModel;
}): Promise<WidgetShop> => {
  const site = await startStaticSite(options.pages);
  let started: E2eApp | undefined;
  try {
    const e2e = await startE2eApp(options.env ?? {}, options.chatModel ? { chatModel: options.chatModel } : {});
    started = e2e;
    const keys = await e2e.admin.createProject({ allowedOrigins: [site.origin], name: options.name });
    const browser = await launchChromium();
    return {
      site,
      e2e,
      browser,
      keys,
      async close() {
        await browser.close();
        await site.close();
        await e2e.stop();
      },
    };
  } catch (err) {
    // What did start is stopped, so the failed start leaves no server behind.
    await site.close();
    await started?.stop();
    throw err;
  }
};

/**
 * A widget spec's world (see startWidgetShop), started before the tests of a describe block and
 * stopped after them, with its parts to use in the tests.
 */
export const useWidgetShop = (options: Parameters<typeof startWidgetShop>[0]) => {
  const shop = useFixture(
    () => startWidgetShop(options),
    (started) => started.close(),
    60_000,
  );
  return { shop, e2e: lazy(() => shop.e2e), site: lazy(() => shop.site), browser: lazy(() => shop.browser) };
};
