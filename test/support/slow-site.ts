import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowSite {
  origin: string;
  /** The path of every GET served, in order (other methods as `HEAD /path`). */
  hits: string[];
  close(): Promise<void>;
}

/** A site of `pages` pages (the home page and `/page-1`…), all linked from the home page, each answering after `delayMs`: a crawl that takes a while. */
export const startSlowSite = async (pages: number, delayMs = 150): Promise<SlowSite> => {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.push(request.method === 'GET' ? path : `${request.method} ${path}`);
    const body =
      path === '/'
        ? `<html><head><title>Home</title></head><body><main><p>The home page of the slow site.</p>${Array.from(
            { length: pages - 1 },
            (_, i) => `<a href="/page-${i + 1}">Page ${i + 1}</a>`,
          ).join(' ')}</main></body></html>`
        : /^\/page-\d+$/.test(path)
          ? `<html><head><title>${path}</title></head><body><main><p>Fact number ${path.slice(6)} of the slow site.</p></main></body></html>`
          : null;
    setTimeout(() => {
      if (body === null) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
