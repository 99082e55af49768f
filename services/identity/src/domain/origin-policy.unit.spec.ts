import { describe, expect, it } from 'vitest';
import { admittingEntries, isOriginAllowed, normalizeOrigin, originMatchEntries } from './origin-policy';

describe('normalizeOrigin', () => {
  it('lowercases, drops a trailing slash and the default port', () => {
    expect(normalizeOrigin('HTTPS://Shop.Example.com/')).toBe('https://shop.example.com');
    expect(normalizeOrigin('https://example.com:443')).toBe('https://example.com');
    expect(normalizeOrigin('http://example.com:80')).toBe('http://example.com');
  });

  it('keeps a non-default port and leaves non-http origins as they are', () => {
    expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(normalizeOrigin('https://example.com:80')).toBe('https://example.com:80');
    expect(normalizeOrigin('null')).toBe('null');
  });
});

describe('isOriginAllowed', () => {
  const listed = ['https://shop.example.com', 'http://localhost:5173'];

  it('lets everything through an empty list', () => {
    expect(isOriginAllowed([], 'https://anywhere.test')).toBe(true);
  });

  it('lets a request without an origin through (server to server)', () => {
    expect(isOriginAllowed(listed, null)).toBe(true);
  });

  it('admits listed origins, however the browser spells them', () => {
    expect(isOriginAllowed(listed, 'https://shop.example.com')).toBe(true);
    expect(isOriginAllowed(listed, 'https://SHOP.example.com:443')).toBe(true);
    expect(isOriginAllowed(listed, 'http://localhost:5173')).toBe(true);
  });

  it('rejects origins that differ in scheme, host or port', () => {
    expect(isOriginAllowed(listed, 'http://shop.example.com')).toBe(false);
    expect(isOriginAllowed(listed, 'https://evil.example.com')).toBe(false);
    expect(isOriginAllowed(listed, 'https://shop.example.com.evil.test')).toBe(false);
    expect(isOriginAllowed(listed, 'http://localhost:3000')).toBe(false);
    expect(isOriginAllowed(listed, 'null')).toBe(false);
  });

  it('admits any origin with *', () => {
    expect(isOriginAllowed(['https://a.test', '*'], 'https://b.test')).toBe(true);
    expect(isOriginAllowed(['*'], 'null')).toBe(true);
  });

  it('admits subdomains, not the apex, with a wildcard entry', () => {
    const wildcard = ['https://*.example.com'];
    expect(isOriginAllowed(wildcard, 'https://shop.example.com')).toBe(true);
    expect(isOriginAllowed(wildcard, 'https://a.b.example.com')).toBe(true);
    expect(isOriginAllowed(wildcard, 'https://example.com')).toBe(false);
    expect(isOriginAllowed(wildcard, 'http://shop.example.com')).toBe(false);
    expect(isOriginAllowed(wildcard, 'https://shop.example.com:8443')).toBe(false);
    expect(isOriginAllowed(wildcard, 'https://shopexample.com')).toBe(false);
  });
});

describe('origin lookup entries', () => {
  it('stores * for an unrestricted key and the normalized entries otherwise', () => {
    expect(originMatchEntries([])).toEqual(['*']);
    expect(originMatchEntries(['https://A.test/', 'https://a.test'])).toEqual(['https://a.test']);
  });

  it('lists the entries that admit an origin, so one $in query finds the keys', () => {
    expect(admittingEntries('https://A.b.example.com:8443')).toEqual([
      '*',
      'https://a.b.example.com:8443',
      'https://*.b.example.com:8443',
      'https://*.example.com:8443',
      'https://*.com:8443',
    ]);
    expect(admittingEntries('null')).toEqual(['*', 'null']);
  });

  it('agrees with isOriginAllowed', () => {
    const cases: Array<[string[], string]> = [
      [['https://*.example.com'], 'https://x.example.com'],
      [['https://*.example.com'], 'https://example.com'],
      [['https://shop.test'], 'https://shop.test:443'],
      [['https://shop.test'], 'https://other.test'],
      [[], 'https://any.test'],
    ];
    for (const [allowed, origin] of cases) {
      const stored = new Set(originMatchEntries(allowed));
      const found = admittingEntries(origin).some((entry) => stored.has(entry));
      expect(found, `${allowed.join(',')} vs ${origin}`).toBe(isOriginAllowed(allowed, origin));
    }
  });
});
