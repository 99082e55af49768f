import { describe, expect, it } from 'vitest';
import { admittingEntries, isOriginAllowed, normalizeOrigin, originMatchEntries } from './origin-policy';

describe('normalizeOrigin', () => {
  it.each([
    // Lowercased, without a trailing slash or the default port.
    ['HTTPS://Shop.Example.com/', 'https://shop.example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['http://example.com:80', 'http://example.com'],
    // A non-default port kept, a non-http origin left as it is.
    ['http://localhost:5173', 'http://localhost:5173'],
    ['https://example.com:80', 'https://example.com:80'],
    ['null', 'null'],
  ])('%s -> %s', (origin, normalized) => {
    expect(normalizeOrigin(origin)).toBe(normalized);
  });
});

const listed = ['https://shop.example.com', 'http://localhost:5173'];
const wildcard = ['https://*.example.com'];

/** Each rule of the origin policy: a key's allowed origins, and origins it admits and rejects. */
const rules: { rule: string; allowed: string[]; admits: (string | null)[]; rejects: string[] }[] = [
  { rule: 'lets everything through an empty list', allowed: [], admits: ['https://anywhere.test'], rejects: [] },
  { rule: 'lets a request without an origin through (server to server)', allowed: listed, admits: [null], rejects: [] },
  {
    rule: 'admits listed origins, however the browser spells them',
    allowed: listed,
    admits: ['https://shop.example.com', 'https://SHOP.example.com:443', 'http://localhost:5173'],
    rejects: [],
  },
  {
    rule: 'rejects origins that differ in scheme, host or port',
    allowed: listed,
    admits: [],
    rejects: ['http://shop.example.com', 'https://evil.example.com', 'https://shop.example.com.evil.test', 'http://localhost:3000', 'null'],
  },
  { rule: 'admits any origin with * among others', allowed: ['https://a.test', '*'], admits: ['https://b.test'], rejects: [] },
  { rule: 'admits any origin with *, null too', allowed: ['*'], admits: ['null'], rejects: [] },
  {
    rule: 'admits subdomains, not the apex, with a wildcard entry',
    allowed: wildcard,
    admits: ['https://shop.example.com', 'https://a.b.example.com'],
    rejects: ['https://example.com', 'http://shop.example.com', 'https://shop.example.com:8443', 'https://shopexample.com'],
  },
];

describe('isOriginAllowed', () => {
  it.each(rules)('$rule', ({ allowed, admits, rejects }) => {
    for (const origin of admits) expect(isOriginAllowed(allowed, origin), `${origin}`).toBe(true);
    for (const origin of rejects) expect(isOriginAllowed(allowed, origin), origin).toBe(false);
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

  it.each(rules)('agrees with isOriginAllowed: $rule', ({ allowed, admits, rejects }) => {
    const stored = new Set(originMatchEntries(allowed));
    for (const origin of [...admits, ...rejects]) {
      if (origin === null) continue;
      const found = admittingEntries(origin).some((entry) => stored.has(entry));
      expect(found, `${allowed.join(',')} vs ${origin}`).toBe(isOriginAllowed(allowed, origin));
    }
  });
});
