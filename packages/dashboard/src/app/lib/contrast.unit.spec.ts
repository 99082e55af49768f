import { describe, expect, it } from 'vitest';
import { contrastRatio, contrastWarning, parseHexColour, TEXT_CONTRAST } from './contrast';

describe('contrast', () => {
  it('reads #rgb and #rrggbb, and nothing else', () => {
    expect(parseHexColour('#fff')).toEqual([255, 255, 255]);
    expect(parseHexColour(' #2563EB ')).toEqual([37, 99, 235]);
    expect(parseHexColour('rgb(0,0,0)')).toBeNull();
    expect(parseHexColour('#12345')).toBeNull();
  });

  it('computes the WCAG ratio: 21 for black on white, 1 for a colour on itself, symmetric', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#2563eb', '#2563eb')).toBeCloseTo(1, 5);
    // Values from the WCAG contrast checker.
    expect(contrastRatio('#2563eb', '#ffffff')).toBeCloseTo(5.17, 2);
    expect(contrastRatio('#ffffff', '#64748b')).toBeCloseTo(4.76, 2);
    expect(contrastRatio('#ffffff', 'tomato')).toBeNull();
  });

  it('warns below the minimum only, and never shows a failing ratio rounded up to it', () => {
    const white = { colour: '#ffffff', name: 'White', what: 'text' };
    expect(contrastWarning('#2563eb', white, TEXT_CONTRAST)).toBeNull();
    expect(contrastWarning('#fde047', white, TEXT_CONTRAST)).toMatch(
      /^White text on #fde047 has a contrast of 1\.\d\d:1, below the 4\.5:1/,
    );
    // #777777 on white is 4.48:1: it fails, and must not read as 4.50:1.
    expect(contrastWarning('#777777', white, TEXT_CONTRAST)).toContain('4.47:1');
    expect(contrastWarning('not a colour', white, TEXT_CONTRAST)).toBeNull();
  });
});
