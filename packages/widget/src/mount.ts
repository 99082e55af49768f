import { PalaverClient, storedDeviceId } from '@palaver/client';
import type { ChatWidgetConfig, QuickPrompt } from '@palaver/contracts';
import { DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts/widget-defaults';
import { h, render } from 'preact';
import { ChatSession } from './chat-session';
import { trackPageContext } from './page-context';
import { widgetCss } from './styles';
import { Widget } from './widget';

export interface MountOptions {
  /** The gateway's address (defaults to the origin widget.js was loaded from). */
  baseUrl?: string;
  /** A publishable key. Without one (a preview), the widget shows the given config and cannot send. */
  apiKey?: string;
  /** Fields of chatWidgetConfig that win over the project's (the dashboard's live preview). */
  config?: Partial<ChatWidgetConfig>;
  quickPrompts?: QuickPrompt[];
  /** Render inside this element (positioned absolutely in it) instead of fixed on the page. */
  target?: HTMLElement;
  /** Open the panel at once. */
  open?: boolean;
  /** A user token your backend signed (docs/widget.md): the visitor is that identified user. */
  userToken?: string | null;
}

export interface WidgetHandle {
  open(): void;
  close(): void;
  /** Applies new config fields at once (live preview). */
  update(config: Partial<ChatWidgetConfig>, quickPrompts?: QuickPrompt[]): void;
  destroy(): void;
  /** Starts a session as the user of this token (null: the device's anonymous visitor), on a new conversation. */
  identify(userToken: string | null): Promise<void>;
  /** The host element; the widget lives in its shadow root. */
  readonly element: HTMLElement;
}

const safeStorage = (): Storage | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
};

/** Mounts a widget in a shadow root on the page (or in `target`) and returns its handle. */
export const mount = (options: MountOptions): WidgetHandle => {
  const host = document.createElement('palaver-widget');
  const inline = !!options.target;
  (options.target ?? document.body).appendChild(host);
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  const custom = document.createElement('style');
  const container = document.createElement('div');
  root.append(style, custom, container);

  const page = trackPageContext(host);
  const client =
    options.apiKey && options.baseUrl
      ? new PalaverClient({
          baseUrl: options.baseUrl,
          apiKey: options.apiKey,
          deviceId: () => storedDeviceId(safeStorage()),
          userToken: options.userToken ?? null,
        })
      : null;
  const session = new ChatSession({ client, storage: safeStorage(), pageContext: page.read });

  const applyStyles = () => {
    const config = session.state.config;
    if (!config) return;
    style.textContent = widgetCss(config, inline);
    custom.textContent = config.customCSSStyles ?? '';
  };
  const unsubscribe = session.subscribe(applyStyles);

  const openListeners = new Set<(open: boolean) => void>();
  const openSignal = {
    subscribe: (listener: (open: boolean) => void) => {
      openListeners.add(listener);
      return () => openListeners.delete(listener);
    },
  };
  const announce = (open: boolean) => {
    for (const listener of openListeners) listener(open);
  };
  render(h(Widget, { session, initiallyOpen: !!options.open, openSignal }), container);
  void session.load({ config: options.config, quickPrompts: options.quickPrompts }, DEFAULT_CHAT_WIDGET_CONFIG);

  return {
    element: host,
    open: () => announce(true),
    close: () => announce(false),
    update: (config, quickPrompts) => session.setConfig(config, quickPrompts),
    async identify(userToken) {
      if (!client) return;
      // Another visitor: the conversation on screen was the previous one's.
      session.newConversation();
      await client.identify(userToken);
    },
    destroy() {
      render(null, container);
      unsubscribe();
      session.dispose();
      page.stop();
      host.remove();
    },
  };
};
