import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CannedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface LocalProxy {
  url: string;
  /** Every request received, in order. */
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * A node:http server in front of `target`: `intercept` may answer a request itself (a 429, say);
 * otherwise it waits `delayMs` and forwards the request.
 */
export const startLocalProxy = async (
  target: string,
  options: { intercept?: (request: { method: string; path: string }, index: number) => CannedAnswer | undefined; delayMs?: number } = {},
): Promise<LocalProxy> => {
  const requests: { method: string; path: string }[] = [];
  const server = createServer(async (request, response) => {
    const seen = { method: request.method ?? 'GET', path: request.url ?? '/' };
    requests.push(seen);
    const body = await readBody(request);
    const canned = options.intercept?.(seen, requests.length - 1);
    if (canned) {
      response.writeHead(canned.status, { 'content-type': 'application/json', ...canned.headers });
      response.end(canned.body === undefined ? '' : JSON.stringify(canned.body));
      return;
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const upstream = await fetch(`${target}${seen.path}`, {
      method: seen.method,
      headers: {
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        ...(request.headers['content-type'] ? { 'content-type': request.headers['content-type'] } : {}),
      },
      body: body.length ? new Uint8Array(body) : undefined,
    });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
};
