import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticSite {
  /** e.g. http://127.0.0.1:43123: another origin than the app's (another port). */
  origin: string;
  /** The path (with query) of every request served, in order. */
  hits: string[];
  close(): Promise<void>;
}

export type StaticPage = { type: string; body: string | Buffer; status?: number; headers?: Record<string, string> };

/**
 * A second local web server, serving fixed pages by path: the "customer's website". The pages
 * object is read on every request, so a test changes the site by changing it.
 */
export const startStaticSite = async (pages: Record<string, StaticPage>): Promise<StaticSite> => {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '/');
    const page = pages[(request.url ?? '/').split('?')[0]!];
    if (!page) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(page.status ?? 200, { 'content-type': page.type, 'cache-control': 'no-store', ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
