import { type HttpResult, http } from '../../support/e2e-app';
import { lazy, useFixture } from '../../support/fixture';
import type { StaticPage } from '../../support/static-site';
import { avatarPage, widgetHostPage } from './widget-page';
import { startWidgetShop, type WidgetShop } from './widget-shop';

/** The bike shop whose visitors may ask for a person, and Ada, the agent online to answer them. */
export interface HandoffShop extends WidgetShop {
  agentToken: string;
  /** A call to the agents' API as Ada. */
  agent(method: string, path: string, body?: unknown): Promise<HttpResult>;
}

/**
 * Starts the bike shop ("Bike helper" in the widget) with handoff on, its page embedding the widget
 * at `/`, and Ada (her avatar at `/ada.svg` on the shop's site) online.
 */
export const startHandoffShop = async (): Promise<HandoffShop> => {
  const pages: Record<string, StaticPage> = { '/ada.svg': avatarPage };
  const shop = await startWidgetShop({ name: 'Bike shop', pages });
  try {
    const { e2e, site, keys } = shop;
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, {
      handoff: { enabled: true },
      chatWidgetConfig: { displayName: 'Bike helper', brandColor: '#0f766e' },
    });
    const ada = await e2e.admin.call('POST', `/projects/${keys.project.id}/agents`, { name: 'Ada', image: `${site.origin}/ada.svg` });
    const agentToken: string = ada.token;
    const agent = (method: string, path: string, body?: unknown) => http(`${e2e.url}/agent/v1${path}`, { method, body, token: agentToken });
    await agent('PUT', '/presence', { status: 'online' });
    pages['/'] = widgetHostPage(e2e.url, keys.publishableKey);
    return { ...shop, agentToken, agent };
  } catch (err) {
    // The failed start leaves no server behind.
    await shop.close();
    throw err;
  }
};

/** The handoff shop (see startHandoffShop), started before the tests of a describe block and stopped after them, with its parts. */
export const useHandoffShop = () => {
  const shop = useFixture(startHandoffShop, (started) => started.close(), 60_000);
  return {
    shop,
    e2e: lazy(() => shop.e2e),
    site: lazy(() => shop.site),
    browser: lazy(() => shop.browser),
    agent: (...args: Parameters<HandoffShop['agent']>) => shop.agent(...args),
  };
};
