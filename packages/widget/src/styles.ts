import type { ChatWidgetConfig } from '@palaver/contracts';
import { accentOn, over, parseColor, type Rgba, textOn } from './contrast';

/** Strips characters that could end a declaration, so a colour value stays a colour value. */
const cssValue = (value: string | undefined, fallback: string): string => {
  const clean = (value ?? '').replace(/[;{}<>\\]/g, '').trim();
  return clean || fallback;
};
const px = (value: number, min: number, max: number): string => `${Math.min(max, Math.max(min, Number(value) || min))}px`;

/** The panel's background and the assistant bubbles', in the light and the dark scheme. */
const LIGHT: [Rgba, Rgba] = [
  [255, 255, 255, 1],
  [243, 244, 246, 1],
];
const DARK: [Rgba, Rgba] = [
  [17, 24, 39, 1],
  [31, 41, 55, 1],
];

/**
 * The colours that must read on or beside the site's own (WCAG AA): text on the brand colour, on
 * the visitor's bubbles and on the chat button follows each one's luminance, and brand-coloured
 * text on the panel is darkened (lightened in the dark scheme) until it reads. A value this cannot
 * read as a colour keeps the former white text and brand-coloured links.
 */
const readable = (brand: string, user: string, button: string | null, panel: [Rgba, Rgba]): string => {
  const solid = (value: string) => {
    const color = parseColor(value);
    return color && over(color, panel[0]);
  };
  const onColor = (value: string) => {
    const color = solid(value);
    return color ? textOn(color) : '#fff';
  };
  const brandColor = solid(brand);
  return [
    `--palaver-on-brand: ${onColor(brand)}`,
    `--palaver-on-user: ${onColor(user)}`,
    `--palaver-on-button: ${onColor(button ?? brand)}`,
    `--palaver-accent: ${brandColor ? accentOn(brandColor, panel) : brand}`,
  ].join('; ');
};

/**
 * The widget's stylesheet, inside its shadow root. `:host` resets everything with !important:
 * in the cascade an important declaration of the shadow context beats the page's, so even a
 * `* { … !important }` on the host page cannot reach in, and nothing here leaks out.
 */
export const widgetCss = (config: ChatWidgetConfig, inline: boolean): string => {
  const [vertical, horizontal] = config.position.split('-') as ['top' | 'bottom', 'left' | 'right'];
  const x = px(config.offset.x, 0, 200);
  const y = px(config.offset.y, 0, 200);
  const brand = cssValue(config.brandColor, '#2563eb');
  const brandDark = cssValue(config.brandColorDark, brand);
  const user = cssValue(config.userMessageBubbleColor, brand);
  const userDark = cssValue(config.userMessageBubbleColorDark, user);
  const button = cssValue(config.chatButtonColor, 'var(--palaver-brand)');
  const ownButton = config.chatButtonColor ? button : null;
  const radius = px(config.bubbleRadius, 0, 32);
  const placement = inline ? 'absolute' : 'fixed';
  // Inline (in a given element), sizes are capped by that element instead of the viewport.
  const vw = inline ? '100%' : '100vw';
  const vh = inline ? '100%' : '100vh';
  return `
:host { all: initial !important; display: block !important; }
:host {
  --palaver-brand: ${brand}; --palaver-user: ${user}; --palaver-button: ${button};
  --palaver-bg: #ffffff; --palaver-fg: #111827; --palaver-muted: #6b7280; --palaver-bubble: #f3f4f6;
  --palaver-border: #e5e7eb; --palaver-radius: ${radius}; --palaver-font: ${px(config.baseFontSize, 10, 24)};
  ${readable(brand, user, ownButton, LIGHT)};
}
@media (prefers-color-scheme: dark) {
  :host {
    --palaver-brand: ${brandDark}; --palaver-user: ${userDark};
    --palaver-bg: #111827; --palaver-fg: #f9fafb; --palaver-muted: #9ca3af; --palaver-bubble: #1f2937; --palaver-border: #374151;
    ${readable(brandDark, userDark, ownButton, DARK)};
  }
}
.palaver-root, .palaver-root * { box-sizing: border-box; }
.palaver-root {
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: var(--palaver-font); line-height: 1.45; color: var(--palaver-fg); text-align: left;
  -webkit-font-smoothing: antialiased;
}
/* No specificity: a control's own colour (the chat button, the send button) wins over this reset. */
:where(.palaver-root button, .palaver-root textarea, .palaver-root input) { font: inherit; color: inherit; }
.palaver-root :focus-visible { outline: 2px solid var(--palaver-accent); outline-offset: 2px; }
.palaver-header :focus-visible { outline-color: currentColor; }
.palaver-launcher {
  position: ${placement}; ${vertical}: ${y}; ${horizontal}: ${x}; z-index: 2147483000;
  width: 56px; height: 56px; border-radius: 50%; border: 0; padding: 0; cursor: pointer;
  background: var(--palaver-button); color: var(--palaver-on-button); display: grid; place-items: center;
  box-shadow: 0 6px 20px rgba(0,0,0,.2); transition: transform .15s ease;
}
.palaver-launcher:hover { transform: scale(1.05); }
.palaver-badge { position: absolute; top: -4px; right: -4px; min-width: 20px; height: 20px; padding: 0 5px; border-radius: 999px; background: #b91c1c; color: #fff; font-size: 12px; font-weight: 700; line-height: 20px; text-align: center; box-shadow: 0 0 0 2px #fff; }
.palaver-launcher img { width: 32px; height: 32px; border-radius: 50%; object-fit: cover; }
.palaver-launcher svg { width: 26px; height: 26px; }
.palaver-panel {
  position: ${placement}; ${vertical}: calc(${y} + 68px); ${horizontal}: ${x}; z-index: 2147483001;
  width: min(${px(config.width, 280, 720)}, calc(${vw} - 2 * ${x}));
  height: min(${px(config.maxHeight, 320, 1200)}, calc(${vh} - ${y} - 84px));
  display: flex; flex-direction: column; overflow: hidden;
  background: var(--palaver-bg); border: 1px solid var(--palaver-border);
  border-radius: min(var(--palaver-radius), 20px); box-shadow: 0 12px 40px rgba(0,0,0,.25);
  animation: palaver-in .18s ease-out;
}
@keyframes palaver-in { from { opacity: 0; transform: translateY(8px); } to { opacity: 1; transform: none; } }
.palaver-header { display: flex; align-items: center; gap: 10px; padding: 12px 12px 12px 14px; background: var(--palaver-brand); color: var(--palaver-on-brand); }
.palaver-header-text { flex: 1; min-width: 0; }
.palaver-title { margin: 0; font-size: 1.07em; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.palaver-subtitle { margin: 0; font-size: .8em; }
.palaver-avatar { width: 32px; height: 32px; border-radius: 50%; object-fit: cover; flex: none; background: rgba(127,127,127,.25); display: grid; place-items: center; font-weight: 600; color: inherit; }
.palaver-icon-button { background: transparent; border: 0; color: inherit; width: 32px; height: 32px; border-radius: 8px; display: grid; place-items: center; cursor: pointer; padding: 0; }
.palaver-icon-button:hover { background: rgba(127,127,127,.25); }
.palaver-icon-button svg { width: 18px; height: 18px; }
.palaver-log { flex: 1; overflow-y: auto; padding: 14px; display: flex; flex-direction: column; gap: 10px; overscroll-behavior: contain; }
.palaver-message { display: flex; flex-direction: column; max-width: 85%; gap: 4px; }
.palaver-message--user { align-self: flex-end; align-items: flex-end; }
.palaver-bubble { padding: 8px 12px; border-radius: var(--palaver-radius); background: var(--palaver-bubble); overflow-wrap: anywhere; }
.palaver-message--user .palaver-bubble { background: var(--palaver-user); color: var(--palaver-on-user); white-space: pre-wrap; }
.palaver-message--error .palaver-bubble { border: 1px solid #dc2626; }
.palaver-bubble p { margin: 0 0 .5em; } .palaver-bubble p:last-child { margin-bottom: 0; }
.palaver-bubble ul, .palaver-bubble ol { margin: .25em 0 .5em; padding-left: 1.3em; }
.palaver-bubble a { color: var(--palaver-accent); text-decoration: underline; }
.palaver-bubble code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .9em; background: rgba(127,127,127,.15); padding: 0 .25em; border-radius: 4px; }
.palaver-bubble pre { overflow-x: auto; background: rgba(127,127,127,.15); padding: 8px; border-radius: 6px; }
.palaver-bubble pre code { background: none; padding: 0; }
.palaver-agent-name { font-size: .78em; color: var(--palaver-muted); display: flex; align-items: center; gap: 6px; }
.palaver-agent-name img { width: 18px; height: 18px; border-radius: 50%; object-fit: cover; }
.palaver-actions .palaver-time { font-size: .75em; color: var(--palaver-muted); align-self: center; margin-right: 4px; opacity: 0; transition: opacity .15s ease; }
.palaver-message:hover .palaver-time, .palaver-message:focus-within .palaver-time { opacity: 1; }
.palaver-message--user .palaver-actions { justify-content: flex-end; }
.palaver-note { align-self: center; margin: 2px 0; font-size: .8em; color: var(--palaver-muted); }
.palaver-rating { margin-top: 4px; padding: 12px; border: 1px solid var(--palaver-border); border-radius: 10px; display: flex; flex-direction: column; gap: 8px; align-items: stretch; font-size: .9em; }
.palaver-rating-title { margin: 0; font-weight: 600; }
.palaver-stars { display: flex; gap: 2px; }
.palaver-star { background: transparent; border: 0; padding: 0 2px; font-size: 1.7em; line-height: 1; cursor: pointer; color: var(--palaver-muted); }
.palaver-star--on { color: #b45309; }
.palaver-stars-shown { margin: 0; font-size: 1.3em; color: #b45309; letter-spacing: 2px; }
.palaver-star-off { color: var(--palaver-border); }
.palaver-rating .palaver-link-button { align-self: flex-start; }
.palaver-sources { font-size: .8em; color: var(--palaver-muted); margin: 0; padding: 0; list-style: none; }
.palaver-sources a { color: inherit; }
.palaver-actions { display: flex; gap: 2px; }
.palaver-feedback { background: transparent; border: 1px solid transparent; border-radius: 6px; width: 28px; height: 26px; display: grid; place-items: center; cursor: pointer; color: var(--palaver-muted); padding: 0; }
.palaver-feedback svg { width: 15px; height: 15px; }
.palaver-feedback[aria-pressed="true"] { color: var(--palaver-accent); border-color: var(--palaver-accent); }
.palaver-typing { display: inline-flex; gap: 4px; padding: 4px 0; }
.palaver-typing span { width: 7px; height: 7px; border-radius: 50%; background: var(--palaver-muted); animation: palaver-blink 1.2s infinite ease-in-out; }
.palaver-typing span:nth-child(2) { animation-delay: .2s; } .palaver-typing span:nth-child(3) { animation-delay: .4s; }
@keyframes palaver-blink { 0%, 80%, 100% { opacity: .25; } 40% { opacity: 1; } }
.palaver-agent-typing { display: flex; align-items: center; gap: 6px; padding: 2px 14px 8px; font-size: .8em; color: var(--palaver-muted); }
.palaver-agent-typing:empty { padding: 0; }
.palaver-agent-typing-avatar { width: 18px; height: 18px; border-radius: 50%; object-fit: cover; flex: none; background: rgba(127,127,127,.25); display: grid; place-items: center; font-size: .8em; font-weight: 600; }
.palaver-agent-typing .palaver-typing span { width: 5px; height: 5px; }
.palaver-prompts { display: flex; flex-wrap: wrap; gap: 6px; }
.palaver-prompt { border: 1px solid var(--palaver-accent); color: var(--palaver-accent); background: transparent; border-radius: 999px; padding: 5px 12px; cursor: pointer; }
.palaver-prompt:hover { background: var(--palaver-brand); color: var(--palaver-on-brand); }
.palaver-notice { margin: 0 12px 8px; padding: 8px 10px; border-radius: 8px; background: #fef2f2; color: #991b1b; font-size: .9em; display: flex; gap: 8px; align-items: flex-start; }
.palaver-notice--info { background: #eff6ff; color: #1e3a8a; }
.palaver-notice span { flex: 1; }
.palaver-notice button { background: transparent; border: 0; cursor: pointer; color: inherit; padding: 0 2px; }
.palaver-contact { margin: 0 12px 8px; padding: 10px; border: 1px solid var(--palaver-border); border-radius: 10px; display: flex; flex-direction: column; gap: 8px; font-size: .9em; }
.palaver-contact-text { margin: 0; }
.palaver-contact-input { border: 1px solid var(--palaver-border); border-radius: 8px; padding: 6px 8px; background: var(--palaver-bg); outline: none; }
.palaver-contact-input:focus { border-color: var(--palaver-accent); }
.palaver-contact .palaver-button:disabled { opacity: .45; cursor: not-allowed; }
.palaver-ended { text-align: center; color: var(--palaver-muted); font-size: .9em; display: flex; flex-direction: column; gap: 8px; align-items: center; }
.palaver-link-button { background: transparent; border: 0; color: var(--palaver-accent); text-decoration: underline; cursor: pointer; padding: 0; }
.palaver-composer { display: flex; gap: 8px; padding: 10px 12px 12px; border-top: 1px solid var(--palaver-border); align-items: flex-end; }
.palaver-input { flex: 1; resize: none; border: 1px solid var(--palaver-border); border-radius: 10px; padding: 8px 10px; max-height: 120px; min-height: 38px; background: var(--palaver-bg); outline: none; }
.palaver-input:focus { border-color: var(--palaver-accent); }
.palaver-send { flex: none; width: 38px; height: 38px; border-radius: 10px; border: 0; background: var(--palaver-brand); color: var(--palaver-on-brand); cursor: pointer; display: grid; place-items: center; padding: 0; }
.palaver-send:disabled { opacity: .45; cursor: not-allowed; }
.palaver-send svg { width: 18px; height: 18px; }
.palaver-dialog { position: absolute; inset: 0; background: rgba(0,0,0,.4); display: grid; place-items: center; padding: 16px; }
.palaver-dialog form { background: var(--palaver-bg); border-radius: 12px; padding: 16px; width: 100%; display: flex; flex-direction: column; gap: 10px; }
.palaver-dialog h3 { margin: 0; font-size: 1.05em; }
.palaver-dialog label { display: flex; gap: 8px; align-items: center; cursor: pointer; }
.palaver-dialog textarea { border: 1px solid var(--palaver-border); border-radius: 8px; padding: 6px 8px; background: var(--palaver-bg); resize: vertical; }
.palaver-dialog-actions { display: flex; gap: 8px; justify-content: flex-end; }
.palaver-button { border-radius: 8px; padding: 7px 14px; cursor: pointer; border: 1px solid var(--palaver-border); background: transparent; }
.palaver-button--primary { background: var(--palaver-brand); border-color: var(--palaver-brand); color: var(--palaver-on-brand); }
.palaver-sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 480px) {
  .palaver-panel { ${inline ? '' : 'top: 0; left: 0; right: 0; bottom: 0; width: 100%; height: 100%; border-radius: 0; border: 0;'} }
  .palaver-message { max-width: 92%; }
}
@media (prefers-reduced-motion: reduce) {
  .palaver-root *, .palaver-root *::before, .palaver-root *::after { animation: none !important; transition: none !important; }
  .palaver-typing span { opacity: .6; }
}
`;
};
