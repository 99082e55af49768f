import { ChatIcon } from '@palaver/widget/icons';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadRealWidget, type WidgetHandle } from '../lib/real-widget';
import { httpUrl } from '../lib/safe-url';
import type { ChatWidgetConfig, ProjectRecord } from '../lib/types';

/** The widget's own bounds for its width and side offset (packages/widget's styles.ts). */
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Number(value) || min));
const panelWidth = (config: ChatWidgetConfig) => clamp(config.width, 280, 720);
const sideOffset = (config: ChatWidgetConfig) => clamp(config.offset.x, 0, 200);

/** Only colours reach inline styles; anything else falls back to the default. */
const safeColour = (value: string | undefined, fallback: string): string =>
  value && /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\)|[a-z]+)$/i.test(value.trim()) ? value.trim() : fallback;

const PREVIEW_CSS = `
:host { all: initial; }
.stage { position: relative; width: 100%; height: 100%; overflow: hidden; font-family: system-ui, sans-serif; }
.stage.dark { background: #0f172a; color: #e2e8f0; }
.panel { position: absolute; display: flex; flex-direction: column; border-radius: 14px; overflow: hidden;
  box-shadow: 0 12px 32px rgba(15, 23, 42, .25); background: #fff; color: #0f172a; }
.dark .panel { background: #1e293b; color: #e2e8f0; }
.header { display: flex; align-items: center; gap: 8px; padding: 12px 14px; color: #fff; font-weight: 600; }
.avatar { width: 28px; height: 28px; border-radius: 50%; background: rgba(255,255,255,.3); object-fit: cover; }
.messages { flex: 1; padding: 12px; display: flex; flex-direction: column; gap: 8px; overflow: auto; }
.bubble { max-width: 80%; padding: 8px 12px; line-height: 1.4; }
.bot { align-self: flex-start; background: #f1f5f9; }
.dark .bot { background: #334155; }
.user { align-self: flex-end; color: #fff; }
.prompts { display: flex; flex-wrap: wrap; gap: 6px; padding: 0 12px 8px; }
.prompt { border: 1px solid currentColor; border-radius: 999px; padding: 3px 10px; font-size: .85em; background: transparent; }
.composer { display: flex; gap: 6px; padding: 10px; border-top: 1px solid rgba(100,116,139,.25); }
.composer input { flex: 1; border: 1px solid rgba(100,116,139,.4); border-radius: 8px; padding: 7px 9px; font: inherit; background: transparent; color: inherit; }
.launcher { position: absolute; width: 52px; height: 52px; border-radius: 50%; border: 0; color: #fff; display: grid; place-items: center;
  box-shadow: 0 6px 16px rgba(15, 23, 42, .3); font-size: 22px; }
.launcher img { width: 28px; height: 28px; }
.launcher svg { width: 26px; height: 26px; }
`;

const corner = (position: ChatWidgetConfig['position'], x: number, y: number, extra = 0) => {
  const [vertical, horizontal] = position.split('-') as ['top' | 'bottom', 'left' | 'right'];
  return { [vertical]: `${y + extra}px`, [horizontal]: `${x}px` };
};

const Preview = ({ config, dark, prompts, scale }: { config: ChatWidgetConfig; dark: boolean; prompts: string[]; scale: number }) => {
  const brand = safeColour(dark ? config.brandColorDark : config.brandColor, '#2563eb');
  const userBubble = safeColour(dark ? config.userMessageBubbleColorDark : config.userMessageBubbleColor, brand);
  const button = safeColour(config.chatButtonColor, brand);
  const { x, y } = config.offset;
  const radius = `${config.bubbleRadius}px`;
  const avatar = httpUrl(config.assistantAvatar);
  const icon = httpUrl(config.chatButtonIcon);
  return (
    <div class={`stage ${dark ? 'dark' : ''}`} style={{ fontSize: `${config.baseFontSize}px` }}>
      <style>{PREVIEW_CSS}</style>
      <style>{config.customCSSStyles}</style>
      <div
        class="panel"
        data-testid="preview-panel"
        style={{
          ...corner(config.position, x * scale, y * scale, 64),
          width: `${panelWidth(config) * scale}px`,
          height: `${Math.min(config.maxHeight, 560) * scale}px`,
        }}
      >
        <div class="header" style={{ background: brand }}>
          {avatar ? <img class="avatar" src={avatar} alt="" /> : <span class="avatar" />}
          {config.displayName}
        </div>
        <div class="messages">
          <div class="bubble bot" style={{ borderRadius: radius }}>
            {config.welcomeMessage}
          </div>
          <div class="bubble user" style={{ borderRadius: radius, background: userBubble }}>
            Do you ship abroad?
          </div>
        </div>
        {prompts.length ? (
          <div class="prompts" style={{ color: brand }}>
            {prompts.map((p) => (
              <span class="prompt" key={p}>
                {p}
              </span>
            ))}
          </div>
        ) : null}
        <div class="composer">
          <input placeholder={config.inputPlaceholder} tabIndex={-1} readOnly aria-hidden="true" />
        </div>
      </div>
      <div class="launcher" style={{ ...corner(config.position, x * scale, y * scale), background: button }} aria-hidden="true">
        {icon ? <img src={icon} alt="" /> : <ChatIcon />}
      </div>
    </div>
  );
};

/**
 * A faithful picture of the widget with this config, drawn in a shadow root so that the
 * project's custom CSS applies to it alone (the real widget also lives in a shadow root).
 */
const FaithfulPreview = (props: { config: ChatWidgetConfig; dark: boolean; prompts: string[] }) => {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    // Full size: a smaller picture would wrap and cut what the real widget shows.
    render(<Preview {...props} scale={1} />, root);
  });
  useEffect(
    () => () => {
      if (host.current?.shadowRoot) render(null, host.current.shadowRoot);
    },
    [],
  );
  return <div ref={host} class="preview-stage" />;
};

/** The real widget, mounted in the preview box with the unsaved config; it follows every change. */
const LivePreview = ({
  config,
  quickPrompts,
  mount,
}: {
  config: ChatWidgetConfig;
  quickPrompts: ProjectRecord['quickPrompts'];
  mount: (target: HTMLElement) => WidgetHandle;
}) => {
  const target = useRef<HTMLDivElement>(null);
  const handle = useRef<WidgetHandle | null>(null);
  useEffect(() => {
    handle.current = mount(target.current!);
    return () => handle.current?.destroy();
  }, []);
  useEffect(() => handle.current?.update(config, quickPrompts), [config, quickPrompts]);
  return <div ref={target} class="preview-stage" />;
};

/** The dashed border of `.widget-preview` (styles.css), both sides. */
const PREVIEW_BORDER = 2;

/** The real widget when this server serves /widget.js, else the faithful picture. */
export const WidgetPreview = ({ config, quickPrompts }: { config: ChatWidgetConfig; quickPrompts: ProjectRecord['quickPrompts'] }) => {
  const [dark, setDark] = useState(false);
  const [mode, setMode] = useState<'loading' | 'widget' | 'faithful'>('loading');
  const [mounter, setMounter] = useState<((target: HTMLElement) => WidgetHandle) | null>(null);
  useEffect(() => {
    void loadRealWidget().then((palaver) => {
      if (!palaver) return setMode('faithful');
      setMounter(() => (target: HTMLElement) => palaver.mount({ target, config, quickPrompts, open: true }));
      setMode('widget');
    });
  }, []);
  return (
    <>
      <p class="muted small preview-note">
        {mode === 'widget' ? (
          'The real widget, with your unsaved changes. It follows your system’s light or dark mode.'
        ) : mode === 'faithful' ? (
          <label class="toggle">
            <input type="checkbox" checked={dark} onChange={(e) => setDark(e.currentTarget.checked)} /> Dark mode
          </label>
        ) : null}
      </p>
      {/* A group, not an image: the real widget in it has buttons and a text box. Its width is the
          widget's own plus the side offset on both sides, so the panel is drawn at its real width. */}
      <div
        class="widget-preview"
        role="group"
        style={{ width: `${panelWidth(config) + 2 * sideOffset(config) + PREVIEW_BORDER}px` }}
        aria-label={`Preview of the widget “${config.displayName}”`}
        data-testid="widget-preview"
        data-mode={mode}
      >
        {mode === 'widget' && mounter ? <LivePreview config={config} quickPrompts={quickPrompts} mount={mounter} /> : null}
        {mode === 'faithful' ? <FaithfulPreview config={config} dark={dark} prompts={quickPrompts.map((p) => p.title)} /> : null}
      </div>
    </>
  );
};
