import { describe, expect, it } from 'vitest';
import { http, useE2eApp } from './support/e2e-app';

describe('security headers', () => {
  const e2e = useE2eApp({ SEED_DEMO: 'true' });

  it('keeps the dashboard out of other sites’ frames, under a CSP, with no Referer', async () => {
    for (const path of ['/dashboard/', '/dashboard/projects/x', '/dashboard']) {
      const response = await fetch(`${e2e.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBeLessThan(400);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const index = await http(`${e2e.url}/dashboard/`);
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(index.text)![1]!;
    const script = await fetch(`${e2e.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('says nosniff on JSON answers (success and error), the demo page and the widget script', async () => {
    const answers = await Promise.all([
      fetch(`${e2e.url}/healthz`),
      fetch(`${e2e.url}/openapi.json`),
      fetch(`${e2e.url}/v2/identity/init`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      fetch(`${e2e.url}/v2/nope`),
      fetch(`${e2e.url}/admin/v1/projects`),
      fetch(`${e2e.url}/demo`),
    ]);
    for (const response of answers) expect(response.headers.get('x-content-type-options'), response.url).toBe('nosniff');
    expect(answers.map((r) => r.status)).toEqual([200, 200, 400, 404, 401, 200]);
    // Neither the API nor the demo page gets the dashboard's policy: the demo embeds the widget.
    for (const response of answers) expect(response.headers.get('content-security-policy'), response.url).toBeNull();
  });

  it('keeps the widget script loadable by any site', async () => {
    const widget = await fetch(`${e2e.url}/widget.js`, { headers: { origin: 'https://shop.example' } });
    expect(widget.status).toBe(200);
    expect(widget.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(widget.headers.get('x-content-type-options')).toBe('nosniff');
    expect(widget.headers.get('x-frame-options')).toBeNull();
    expect(widget.headers.get('content-security-policy')).toBeNull();
  });
});
