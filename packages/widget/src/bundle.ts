import { type MountOptions, mount, type WidgetHandle } from './mount';

declare global {
  interface Window {
    Palaver?: {
      mount(options: MountOptions): WidgetHandle;
      identify(userToken: string | null): Promise<void>;
      widget: WidgetHandle | null;
    };
  }
}

/**
 * widget.js. `<script src="…/widget.js" data-key="pk_…" async>` mounts the widget at once;
 * `data-base-url` overrides the gateway address (default: where the script came from), and
 * `data-preview` (or no data-key) only defines `window.Palaver.mount` for explicit mounting.
 * `data-user-token` (or `Palaver.identify(token)` later) makes the visitor the user your backend
 * signed the token for (docs/widget.md).
 */
const script = document.currentScript as HTMLScriptElement | null;
const scriptOrigin = script?.src ? new URL(script.src, location.href).origin : location.origin;
const baseUrl = script?.dataset.baseUrl || scriptOrigin;

/** The token of `data-user-token`, or the latest `identify` before the widget is mounted. */
let userToken: string | null = script?.dataset.userToken || null;

const api = {
  widget: null as WidgetHandle | null,
  mount: (options: MountOptions) => mount({ baseUrl, userToken, ...options }),
  identify: async (token: string | null): Promise<void> => {
    userToken = token;
    await api.widget?.identify(token);
  },
};
window.Palaver = api;

const apiKey = script?.dataset.key;
if (apiKey && script?.dataset.preview === undefined) {
  const start = () => {
    api.widget = mount({ baseUrl, apiKey, userToken, open: script.dataset.open !== undefined });
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}
