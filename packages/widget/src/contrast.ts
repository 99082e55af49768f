/** An sRGB colour: red, green, blue (0-255) and alpha (0-1). */
export type Rgba = [number, number, number, number];

/** WCAG AA for normal text. */
const AA = 4.5;

const hex = (value: string): Rgba | null => {
  const match = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value);
  if (!match) return null;
  let digits = match[1]!;
  if (digits.length <= 4) digits = [...digits].map((digit) => digit + digit).join('');
  const channel = (index: number) => Number.parseInt(digits.slice(index * 2, index * 2 + 2), 16);
  return [channel(0), channel(1), channel(2), digits.length === 8 ? channel(3) / 255 : 1];
};

const functional = (value: string): Rgba | null => {
  const match = /^rgba?\(([^)]*)\)$/i.exec(value);
  if (!match) return null;
  const parts = match[1]!.split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3) return null;
  const number = (part: string, scale: number) => (part.endsWith('%') ? (Number.parseFloat(part) / 100) * scale : Number.parseFloat(part));
  const [r, g, b] = parts.slice(0, 3).map((part) => number(part, 255));
  const alpha = parts[3] === undefined ? 1 : number(parts[3], 1);
  const color = [r!, g!, b!, alpha];
  return color.every(Number.isFinite) ? (color as Rgba) : null;
};

let probe: CanvasRenderingContext2D | null | undefined;

/** Any other CSS colour (a name, hsl()…), as the browser's canvas spells it back: #rrggbb or rgba(). */
const viaBrowser = (value: string): string | null => {
  if (probe === undefined) probe = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!probe) return null;
  // An invalid colour leaves fillStyle as it was: two different starting points tell.
  probe.fillStyle = '#000';
  probe.fillStyle = value;
  const first = String(probe.fillStyle);
  probe.fillStyle = '#fff';
  probe.fillStyle = value;
  return String(probe.fillStyle) === first ? first : null;
};

/** A CSS colour value, or null when it is not one this can read (then nothing is adjusted). */
export const parseColor = (value: string): Rgba | null => {
  const clean = value.trim();
  const direct = hex(clean) ?? functional(clean);
  if (direct) return direct;
  const spelled = viaBrowser(clean);
  return spelled ? (hex(spelled) ?? functional(spelled)) : null;
};

/** The colour as seen over an opaque backdrop. */
export const over = ([r, g, b, a]: Rgba, [br, bg, bb]: Rgba): Rgba => [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a), 1];

/** WCAG relative luminance. */
const luminance = ([r, g, b]: Rgba): number => {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
};

/** WCAG contrast ratio, 1 to 21. */
export const contrast = (a: Rgba, b: Rgba): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

const css = ([r, g, b]: Rgba): string => `rgb(${r}, ${g}, ${b})`;
const WHITE: Rgba = [255, 255, 255, 1];
const INK: Rgba = [17, 24, 39, 1];
const BLACK: Rgba = [0, 0, 0, 1];

/**
 * The text colour for a coloured background (the header, the visitor's bubbles): white while it
 * reads at 4.5:1, else dark ink, else black (one of white and black always reaches 4.58:1).
 */
export const textOn = (background: Rgba): string => {
  const best = [WHITE, INK].find((color) => contrast(color, background) >= AA) ?? BLACK;
  return best === WHITE ? '#fff' : css(best);
};

/**
 * The brand colour as text on the panel's backgrounds (links, quick prompts): itself when it
 * reads at 4.5:1 on each, else mixed toward black (light panel) or white (dark panel) just
 * enough that it does.
 */
export const accentOn = (color: Rgba, backgrounds: Rgba[]): string => {
  const target = luminance(backgrounds[0]!) > 0.18 ? BLACK : WHITE;
  for (let step = 0; step <= 10; step += 1) {
    const t = step / 10;
    // Whole channels, as the colour will be written: the ratio checked is the ratio drawn.
    const mixed = [0, 1, 2].map((i) => Math.round(color[i]! + (target[i]! - color[i]!) * t)).concat(1) as Rgba;
    if (backgrounds.every((background) => contrast(mixed, background) >= AA)) return css(mixed);
  }
  return css(target);
};
