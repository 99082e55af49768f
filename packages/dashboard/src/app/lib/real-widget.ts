import type { ChatWidgetConfig, ProjectRecord } from './types';

type QuickPrompts = ProjectRecord['quickPrompts'];

/** What widget.js exposes as `window.Palaver` (docs/widget.md): mount with an explicit config. */
export interface WidgetHandle {
  update(config: Partial<ChatWidgetConfig>, quickPrompts?: QuickPrompts): void;
  destroy(): void;
}
interface PalaverGlobal {
  mount(options: { config?: Partial<ChatWidgetConfig>; quickPrompts?: QuickPrompts; target?: HTMLElement; open?: boolean }): WidgetHandle;
}

let loading: Promise<PalaverGlobal | null> | null = null;

const palaver = (): PalaverGlobal | null => {
  const candidate = (window as unknown as { Palaver?: Partial<PalaverGlobal> }).Palaver;
  return typeof candidate?.mount === 'function' ? (candidate as PalaverGlobal) : null;
};

/**
 * The real widget from this gateway's /widget.js in preview mode (no key: it only defines
 * `window.Palaver.mount`), or null when this server has no widget to serve.
 */
export const loadRealWidget = (): Promise<PalaverGlobal | null> => {
  loading ??= new Promise((resolve) => {
    if (palaver()) return resolve(palaver());
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.async = true;
    script.dataset.preview = '';
    script.onload = () => resolve(palaver());
    script.onerror = () => resolve(null);
    document.head.append(script);
  });
  return loading;
};
