import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OutboundFetchError,
  OutboundGuard,
  OutboundRefusedError,
  outboundGuardFromConfig,
  type ResolvedAddress,
  type Resolver,
} from './outbound.guard';

/** A resolver answering from a table, counting the look-ups of each name. */
const tableResolver = (table: Record<string, ResolvedAddress[]>) => {
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    calls.push(hostname);
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return { resolve, calls };
};
const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });

let server: Server;
let port = 0;
let hits: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const url = request.url ?? '/';
    if (url === '/ok') response.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${request.headers['user-agent']}`);
    else if (url === '/to-ok') response.writeHead(302, { location: '/ok' }).end();
    else if (url === '/to-metadata') response.writeHead(302, { location: 'http://metadata.test/latest/' }).end();
    else if (url === '/to-link-local') response.writeHead(301, { location: 'http://169.254.169.254/latest/' }).end();
    else if (url === '/to-other-origin') response.writeHead(302, { location: `http://other.test:${port}/ok` }).end();
    else if (url === '/loop') response.writeHead(302, { location: '/loop' }).end();
    else if (url === '/big') response.writeHead(200).end('x'.repeat(5000));
    else if (url === '/slow') setTimeout(() => response.writeHead(200).end('late'), 2000);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('OutboundGuard.checkUrl', () => {
  it('refuses loopback, private and link-local literals by default', async () => {
    const guard = new OutboundGuard({ allowPrivateNetworks: false });
    for (const url of [
      'http://127.0.0.1/',
      'http://10.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fe80::1]/',
    ]) {
      await expect(guard.checkUrl(url), url).rejects.toBeInstanceOf(OutboundRefusedError);
    }
    await expect(guard.checkUrl('http://127.0.0.1/')).rejects.toThrow(/OUTBOUND_ALLOW_PRIVATE_NETWORKS/);
    guard.close();
  });

  it('lifts the private ban when allowed, never the link-local one', async () => {
    const guard = new OutboundGuard({ allowPrivateNetworks: true });
    await expect(guard.checkUrl('http://127.0.0.1:8080/x')).resolves.toBeInstanceOf(URL);
    await expect(guard.checkUrl('http://[::1]/')).resolves.toBeInstanceOf(URL);
    await expect(guard.checkUrl('http://169.254.169.254/')).rejects.toThrow(/link-local/);
    await expect(guard.checkUrl('http://[::ffff:169.254.169.254]/')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.checkUrl('http://[64:ff9b::a9fe:a9fe]/')).rejects.toBeInstanceOf(OutboundRefusedError);
    guard.close();
  });

  it('refuses other schemes and URLs with credentials', async () => {
    const guard = new OutboundGuard({ allowPrivateNetworks: true });
    await expect(guard.checkUrl('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(guard.checkUrl('ftp://example.com/')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.checkUrl('http://user:pw@example.com/')).rejects.toBeInstanceOf(OutboundRefusedError);
    guard.close();
  });

  it('checks every address a name resolves to', async () => {
    const { resolve } = tableResolver({
      'public.test': [v4('93.184.216.34'), { address: '2606:4700::1111', family: 6 }],
      'mixed.test': [v4('93.184.216.34'), v4('10.0.0.5')],
      'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
      'metadata.test': [v4('169.254.169.254')],
    });
    const guard = new OutboundGuard({ allowPrivateNetworks: false, resolve });
    await expect(guard.checkUrl('https://public.test/')).resolves.toBeInstanceOf(URL);
    await expect(guard.checkUrl('https://mixed.test/')).rejects.toThrow(/mixed.test resolves to 10.0.0.5/);
    await expect(guard.checkUrl('https://mapped.test/')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.checkUrl('https://metadata.test/')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.checkUrl('https://nowhere.test/')).rejects.toBeInstanceOf(OutboundFetchError);
    guard.close();
  });
});

describe('OutboundGuard with allowed hosts', () => {
  it('reaches only the listed hosts and their wildcard subdomains, refused before any DNS look-up', async () => {
    const { resolve, calls } = tableResolver({ 'shop.test': [v4('93.184.216.34')], 'docs.shop.test': [v4('93.184.216.35')] });
    const guard = new OutboundGuard({ allowPrivateNetworks: false, allowedHosts: ['shop.test', '*.shop.test'], resolve });
    await expect(guard.checkUrl('https://shop.test/')).resolves.toBeInstanceOf(URL);
    await expect(guard.checkUrl('https://DOCS.shop.test/a')).resolves.toBeInstanceOf(URL);
    await expect(guard.checkUrl('https://evil.test/')).rejects.toThrow(/evil.test is not among the allowed hosts/);
    await expect(guard.checkUrl('https://shop.test.evil.test/')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.checkUrl('https://93.184.216.34/')).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(calls).toEqual(['shop.test', 'docs.shop.test']);
    guard.close();
  });

  it('checks a redirect against the list too', async () => {
    const guard = new OutboundGuard({ allowPrivateNetworks: true, allowedHosts: ['127.0.0.1'] });
    expect((await guard.fetch(`http://127.0.0.1:${port}/to-ok`)).status).toBe(200);
    await expect(guard.fetch(`http://127.0.0.1:${port}/to-other-origin`)).rejects.toThrow(/other.test is not among the allowed hosts/);
    guard.close();
  });

  it('reads OUTBOUND_ALLOWED_HOSTS from the configuration, a blank value meaning no list', async () => {
    const listed = outboundGuardFromConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_ALLOWED_HOSTS: ' a.test , *.b.test ' });
    await expect(listed.checkUrl('http://c.test/')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(listed.checkUrl('http://127.0.0.1/')).rejects.toBeInstanceOf(OutboundRefusedError);
    const open = outboundGuardFromConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_ALLOWED_HOSTS: ' ' });
    await expect(open.checkUrl('http://127.0.0.1/')).resolves.toBeInstanceOf(URL);
    listed.close();
    open.close();
  });
});

describe('OutboundGuard.fetch', () => {
  it('fetches through a checked address and names itself', async () => {
    const guard = new OutboundGuard({ allowPrivateNetworks: true, userAgent: 'PalaverBot/1.2.3' });
    const response = await guard.fetch(`http://127.0.0.1:${port}/ok`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello PalaverBot/1.2.3');
    guard.close();
  });

  it('checks the address at connection time: a name answering a private address is refused before connecting', async () => {
    const { resolve, calls } = tableResolver({ 'site.test': [v4('127.0.0.1')] });
    const refusing = new OutboundGuard({ allowPrivateNetworks: false, resolve });
    hits = [];
    await expect(refusing.fetch(`http://site.test:${port}/ok`)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(hits).toEqual([]);
    expect(calls).toContain('site.test');
    refusing.close();
    const allowing = new OutboundGuard({ allowPrivateNetworks: true, resolve });
    expect((await allowing.fetch(`http://site.test:${port}/ok`)).status).toBe(200);
    allowing.close();
  });

  it('checks the answer the connection uses: a name rebound to a refused address after its check is refused', async () => {
    const answers = [[v4('93.184.216.34')], [v4('127.0.0.1')]];
    let n = 0;
    const resolve: Resolver = async () => answers[Math.min(n++, 1)]!;
    const guard = new OutboundGuard({ allowPrivateNetworks: false, resolve });
    await expect(guard.checkUrl(`http://rebind.test:${port}/ok`)).resolves.toBeInstanceOf(URL);
    hits = [];
    await expect(guard.fetch(`http://rebind.test:${port}/ok`)).rejects.toThrow(/resolves to 127.0.0.1/);
    expect(hits).toEqual([]);
    guard.close();
  });

  it('follows redirects by hand and checks each hop', async () => {
    const { resolve } = tableResolver({ 'metadata.test': [v4('169.254.169.254')], 'other.test': [v4('127.0.0.1')] });
    const guard = new OutboundGuard({ allowPrivateNetworks: true, resolve });
    const followed = await guard.fetch(`http://127.0.0.1:${port}/to-ok`);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`http://127.0.0.1:${port}/ok`);
    await expect(guard.fetch(`http://127.0.0.1:${port}/to-metadata`)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.fetch(`http://127.0.0.1:${port}/to-link-local`)).rejects.toThrow(/169.254.169.254/);
    await expect(guard.fetch(`http://127.0.0.1:${port}/loop`, { maxRedirects: 3 })).rejects.toThrow(/more than 3 redirects/);
    expect((await guard.fetch(`http://127.0.0.1:${port}/to-other-origin`)).status).toBe(200);
    await expect(guard.fetch(`http://127.0.0.1:${port}/to-other-origin`, { sameOriginRedirects: true })).rejects.toThrow(/another origin/);
    guard.close();
  });

  it('caps the response size and the time', async () => {
    const guard = new OutboundGuard({ allowPrivateNetworks: true });
    await expect(guard.fetch(`http://127.0.0.1:${port}/big`, { maxBytes: 1000 })).rejects.toThrow(/larger than 1000 bytes/);
    expect((await guard.fetch(`http://127.0.0.1:${port}/big`, { maxBytes: 5000 })).body.length).toBe(5000);
    await expect(guard.fetch(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200 })).rejects.toThrow(/timed out/);
    guard.close();
  });
});
