import type { StaticPage } from '../../support/static-site';

/** An agent's avatar, served by the customer's site: the API takes only http(s) URLs for images. */
export const avatarPage: StaticPage = {
  type: 'image/svg+xml',
  body: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#7c3aed"/></svg>',
};

/**
 * A shop's page embedding the widget with `key`, loaded from the app at `appUrl`. `title` is the
 * document's (what the agents see as the visitor's page); `heading` is the page's only content.
 */
export const widgetHostPage = (appUrl: string, key: string, { title = 'Bike shop', heading = 'Bike shop' } = {}): StaticPage => ({
  type: 'text/html',
  body: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${heading}</h1></main>
<script src="${appUrl}/widget.js" data-key="${key}" async></script></body></html>`,
});
