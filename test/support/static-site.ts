import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticSite {
  /** e.g. http://127.0.0.1:43123: another origin than the app's (another port). */
  origin: string;
  close(): Promise<void>;
}

/** A second local web server, serving fixed pages by path: the "customer's website". */
export const startStaticSite = async (pages: Record<string, { type: string; body: string }>): Promise<StaticSite> => {
  const server: Server = createServer((request, response) => {
    const page = pages[(request.url ?? '/').split('?')[0]!];
    if (!page) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': page.type, 'cache-control': 'no-store' }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
