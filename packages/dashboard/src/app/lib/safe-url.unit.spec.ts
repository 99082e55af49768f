import { describe, expect, it } from 'vitest';
import { httpUrl } from './safe-url';

describe('httpUrl', () => {
  it('keeps absolute http(s) URLs', () => {
    expect(httpUrl('https://shop.example/help/returns')).toBe('https://shop.example/help/returns');
    expect(httpUrl(' http://shop.example ')).toBe('http://shop.example/');
  });

  it('refuses script, data and other schemes however they are spelt, and relative or empty values', () => {
    for (const value of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x',
      '/relative',
      '',
      null,
      undefined,
    ]) {
      expect(httpUrl(value)).toBeNull();
    }
  });
});
