import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accentOn, contrast, parseColor, type Rgba, textOn } from './contrast';

const rgb = (value: string): Rgba => {
  const color = parseColor(value);
  if (!color) throw new Error(`not a colour: ${value}`);
  return color;
};
const WHITE = rgb('#fff');
const PANELS: Array<[Rgba, Rgba]> = [
  [rgb('#ffffff'), rgb('#f3f4f6')],
  [rgb('#111827'), rgb('#1f2937')],
];

describe('parseColor', () => {
  it('reads hex and rgb() in their forms, and nothing else without a browser', () => {
    expect(parseColor('#2dd4bf')).toEqual([45, 212, 191, 1]);
    expect(parseColor('#FFF')).toEqual([255, 255, 255, 1]);
    expect(parseColor('#0f766e80')).toEqual([15, 118, 110, 128 / 255]);
    expect(parseColor('rgb(15, 118, 110)')).toEqual([15, 118, 110, 1]);
    expect(parseColor('rgb(15 118 110 / 50%)')).toEqual([15, 118, 110, 0.5]);
    expect(parseColor('rgba(100%, 0%, 0%, 0.25)')).toEqual([255, 0, 0, 0.25]);
    expect(parseColor('var(--palaver-brand)')).toBeNull();
    expect(parseColor('#12')).toBeNull();
  });
});

describe('text on a brand colour', () => {
  it('stays white on a dark brand and turns dark on a light one', () => {
    expect(textOn(rgb('rgb(15, 118, 110)'))).toBe('#fff');
    expect(textOn(rgb('rgb(45, 212, 191)'))).toBe('rgb(17, 24, 39)');
    expect(textOn(rgb('#fde047'))).toBe('rgb(17, 24, 39)');
  });

  it('reads at 4.5:1 on any opaque colour', () => {
    fc.assert(
      fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)), ([r, g, b]) => {
        const background: Rgba = [r, g, b, 1];
        expect(contrast(rgb(textOn(background)), background)).toBeGreaterThanOrEqual(4.5);
      }),
    );
  });
});

describe('brand-coloured text on the panel', () => {
  it('keeps a brand colour that reads, and darkens or lightens one that does not', () => {
    expect(accentOn(rgb('#1e3a8a'), PANELS[0]!)).toBe('rgb(30, 58, 138)');
    const onLight = rgb(accentOn(rgb('rgb(45, 212, 191)'), PANELS[0]!));
    expect(contrast(onLight, WHITE)).toBeGreaterThanOrEqual(4.5);
    const onDark = rgb(accentOn(rgb('#1e3a8a'), PANELS[1]!));
    expect(contrast(onDark, PANELS[1]![1])).toBeGreaterThanOrEqual(4.5);
  });

  it('reads at 4.5:1 on both backgrounds of either scheme, for any brand colour', () => {
    fc.assert(
      fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)), fc.constantFrom(...PANELS), ([r, g, b], panel) => {
        const accent = rgb(accentOn([r, g, b, 1], panel));
        for (const background of panel) expect(contrast(accent, background)).toBeGreaterThanOrEqual(4.5);
      }),
    );
  });
});
