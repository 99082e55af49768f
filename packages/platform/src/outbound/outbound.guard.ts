import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress, isAddressAllowed } from './address-policy';

/** A resolved address of a host name, as `dns.lookup(…, { all: true })` answers. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (injectable so tests can answer with any address). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The URL may not be fetched: not http(s), or it (or a redirect) reaches a refused address. */
export class OutboundRefusedError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The request failed: network error, timeout, too large a response, too many redirects. */
export class OutboundFetchError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'OutboundFetchError';
  }
}

export interface OutboundGuardOptions {
  /** Lifts the ban on loopback and private addresses (intranets, tests); link-local stays refused. */
  allowPrivateNetworks: boolean;
  /**
   * Host names that may be reached (`*.example.com`: its subdomains), checked before any DNS
   * lookup, on every redirect too; absent: any host whose addresses pass the checks.
   */
  allowedHosts?: readonly string[];
  resolve?: Resolver;
  userAgent?: string;
}

export interface OutboundFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The response body is cut off with an error past this many bytes. */
  maxBytes?: number;
  /** For the whole fetch, redirects included. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** A redirect to another origin (scheme, host and port) is refused. */
  sameOriginRedirects?: boolean;
}

export interface OutboundResponse {
  /** The URL finally fetched, after redirects. */
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export const DEFAULT_OUTBOUND_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_OUTBOUND_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const describe = (kind: string): string =>
  kind === 'private'
    ? 'a loopback or private network address (set OUTBOUND_ALLOW_PRIVATE_NETWORKS=true to allow those)'
    : 'a link-local, metadata or other non-public address';

/**
 * Every outbound HTTP request of the product goes through here (crawler, webhooks). The host is
 * resolved, each address it resolves to is checked, and the connection is made to a checked
 * address by the socket's own lookup: a DNS answer that changes between the check and the
 * connection, or a redirect (each followed by hand and checked again), cannot reach a refused
 * address. Responses are capped in size and time.
 */
export class OutboundGuard {
  private readonly resolve: Resolver;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: OutboundGuardOptions) {
    this.resolve = options.resolve ?? systemResolver;
    const lookup = this.lookup;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16, lookup } as http.AgentOptions);
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16, lookup } as https.AgentOptions);
  }

  get allowPrivateNetworks(): boolean {
    return this.options.allowPrivateNetworks;
  }

  /** Parses the URL and checks every address its host resolves to; throws OutboundRefusedError. */
  async checkUrl(raw: string): Promise<URL> {
    const url = this.parse(raw);
    const host = bareHost(url.hostname);
    if (isIP(host)) {
      this.checkAddress(host, url.href);
      return url;
    }
    const addresses = await this.resolveChecked(host, url.href);
    if (addresses.length === 0) throw new OutboundFetchError(`${host} does not resolve`, url.href);
    return url;
  }

  async fetch(raw: string, options: OutboundFetchOptions = {}): Promise<OutboundResponse> {
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS);
    let url = this.parse(raw);
    const origin = url.origin;
    let method = options.method ?? 'GET';
    let body = options.body;
    for (let hop = 0; ; hop++) {
      const host = bareHost(url.hostname);
      if (isIP(host)) this.checkAddress(host, url.href);
      const response = await this.once(url, method, body, options, deadline);
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location) return response;
      if (hop >= maxRedirects) throw new OutboundFetchError(`more than ${maxRedirects} redirects`, raw);
      const next = this.parse(new URL(location, url).href);
      if (options.sameOriginRedirects && next.origin !== origin) {
        throw new OutboundRefusedError(`redirect to another origin (${next.origin}) refused`, next.href);
      }
      if ((response.status === 303 && method !== 'HEAD') || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefusedError('not a valid URL', raw);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRefusedError(`only http and https URLs may be fetched, not ${url.protocol}`, raw);
    }
    if (url.username || url.password) throw new OutboundRefusedError('URLs with credentials are refused', raw);
    const { allowedHosts } = this.options;
    if (allowedHosts && !allowedHosts.some((pattern) => hostMatches(url.hostname, pattern))) {
      throw new OutboundRefusedError(`${url.hostname} is not among the allowed hosts (OUTBOUND_ALLOWED_HOSTS)`, raw);
    }
    return url;
  }

  private checkAddress(address: string, url: string): void {
    if (isAddressAllowed(address, this.options.allowPrivateNetworks)) return;
    throw new OutboundRefusedError(`refused: ${address} is ${describe(classifyAddress(address))}`, url);
  }

  /** All addresses of the host, each checked: one refused address refuses the host. */
  private async resolveChecked(host: string, url: string): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (err) {
      throw new OutboundFetchError(`${host} does not resolve: ${(err as Error).message}`, url);
    }
    for (const { address } of addresses) {
      if (!isAddressAllowed(address, this.options.allowPrivateNetworks)) {
        throw new OutboundRefusedError(`refused: ${host} resolves to ${address}, ${describe(classifyAddress(address))}`, url);
      }
    }
    return addresses;
  }

  /** The socket's lookup: resolves and checks at connection time, so the address used is the one checked. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolveChecked(hostname, hostname).then(
      (addresses) => {
        const family = typeof options === 'object' ? options.family : undefined;
        const usable = addresses.filter((a) => !family || family === 0 || a.family === family);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
        } else if (typeof options === 'object' && options.all) {
          (callback as unknown as (err: null, addresses: ResolvedAddress[]) => void)(null, usable);
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (err: Error) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };

  private once(
    url: URL,
    method: string,
    body: string | Buffer | undefined,
    options: OutboundFetchOptions,
    deadline: number,
  ): Promise<OutboundResponse> {
    const maxBytes = options.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new OutboundFetchError('timed out', url.href));
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<OutboundResponse>((resolve, reject) => {
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        reject(err);
      };
      const request = transport.request(
        url,
        {
          method,
          agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
          lookup: this.lookup,
          headers: {
            'user-agent': this.options.userAgent ?? 'Palaver',
            'accept-encoding': 'identity',
            ...options.headers,
          },
        },
        (response) => {
          const declared = Number(response.headers['content-length']);
          if (method !== 'HEAD' && Number.isFinite(declared) && declared > maxBytes) {
            response.destroy();
            fail(new OutboundFetchError(`response larger than ${maxBytes} bytes`, url.href));
            return;
          }
          const parts: Buffer[] = [];
          let size = 0;
          response.on('data', (part: Buffer) => {
            size += part.length;
            if (size > maxBytes) {
              response.destroy();
              fail(new OutboundFetchError(`response larger than ${maxBytes} bytes`, url.href));
              return;
            }
            parts.push(part);
          });
          response.on('error', (err) => fail(new OutboundFetchError(err.message, url.href)));
          response.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ url: url.href, status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) });
          });
        },
      );
      const timer = setTimeout(() => fail(new OutboundFetchError('timed out', url.href)), remaining);
      request.on('error', (err) => fail(err instanceof OutboundRefusedError ? err : new OutboundFetchError(err.message, url.href)));
      request.end(body);
    });
  }
}

/** `shop.example.com` matches itself; `*.example.com` matches its subdomains, not the apex. */
const hostMatches = (hostname: string, pattern: string): boolean => {
  const host = hostname.toLowerCase();
  const wanted = pattern.trim().toLowerCase();
  return wanted.startsWith('*.') ? host.endsWith(wanted.slice(1)) : host === wanted;
};

/** OUTBOUND_ALLOWED_HOSTS as a list; unset or blank: no list. */
export const parseAllowedHosts = (value: string | undefined): string[] | undefined => {
  const hosts = (value ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
  return hosts.length > 0 ? hosts : undefined;
};

const bareHost = (hostname: string): string => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

/** The guard as configured (OUTBOUND_ALLOW_PRIVATE_NETWORKS, OUTBOUND_ALLOWED_HOSTS). */
export const outboundGuardFromConfig = (
  config: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' | 'false'; OUTBOUND_ALLOWED_HOSTS?: string | undefined },
  userAgent?: string,
): OutboundGuard => {
  const allowedHosts = parseAllowedHosts(config.OUTBOUND_ALLOWED_HOSTS);
  return new OutboundGuard({
    allowPrivateNetworks: config.OUTBOUND_ALLOW_PRIVATE_NETWORKS === 'true',
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(userAgent ? { userAgent } : {}),
  });
};
