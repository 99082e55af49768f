import { type MountOptions, mount, type WidgetHandle } from './mount';

declare global {
  interface Window {
    Palaver?: { mount(options: MountOptions): WidgetHandle; widget: WidgetHandle | null };
  }
}

/**
 * widget.js. `<script src="…/widget.js" data-key="pk_…" async>` mounts the widget at once;
 * `data-base-url` overrides the gateway address (default: where the script came from), and
 * `data-preview` (or no data-key) only defines `window.Palaver.mount` for explicit mounting.
 */
const script = document.currentScript as HTMLScriptElement | null;
const scriptOrigin = script?.src ? new URL(script.src, location.href).origin : location.origin;
const baseUrl = script?.dataset.baseUrl || scriptOrigin;

const api = {
  widget: null as WidgetHandle | null,
  mount: (options: MountOptions) => mount({ baseUrl, ...options }),
};
window.Palaver = api;

const apiKey = script?.dataset.key;
if (apiKey && script?.dataset.preview === undefined) {
  const start = () => {
    api.widget = mount({ baseUrl, apiKey, open: script.dataset.open !== undefined });
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}
