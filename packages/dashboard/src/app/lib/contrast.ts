/** WCAG 2 contrast between two colours, for the widget settings' warnings. */

type Rgb = [number, number, number];

/** `#rgb` or `#rrggbb` as channels 0–255, else null (other notations are not judged). */
export const parseHexColour = (value: string): Rgb | null => {
  const hex = value.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(hex);
  if (short) return [short[1]!, short[2]!, short[3]!].map((c) => Number.parseInt(c + c, 16)) as Rgb;
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(hex);
  return long ? ([long[1]!, long[2]!, long[3]!].map((c) => Number.parseInt(c, 16)) as Rgb) : null;
};

const relativeLuminance = ([r, g, b]: Rgb): number => {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
};

/** The contrast ratio (1 to 21) of two hex colours, or null when either is not one. */
export const contrastRatio = (a: string, b: string): number | null => {
  const first = parseHexColour(a);
  const second = parseHexColour(b);
  if (!first || !second) return null;
  const [light, dark] = [relativeLuminance(first), relativeLuminance(second)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** WCAG AA: 4.5:1 for text of normal size, 3:1 for icons and other graphics. */
export const TEXT_CONTRAST = 4.5;
export const GRAPHIC_CONTRAST = 3;

/** A sentence saying why `foreground` on `background` is hard to see, or null when it is fine or not judged. */
export const contrastWarning = (
  background: string,
  foreground: { colour: string; name: string; what: string },
  minimum: number,
): string | null => {
  const ratio = contrastRatio(background, foreground.colour);
  if (ratio === null || ratio >= minimum) return null;
  // Floor, not round: a ratio just under the minimum must not read as meeting it.
  const shown = Math.floor(ratio * 100) / 100;
  return `${foreground.name} ${foreground.what} on ${background.trim()} has a contrast of ${shown.toFixed(2)}:1, below the ${minimum}:1 WCAG AA asks for: choose a darker colour.`;
};
