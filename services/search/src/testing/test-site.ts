import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestSite {
  /** `http://127.0.0.1:<port>`: a private address, so the crawl's config must allow private networks. */
  origin: string;
  close(): Promise<void>;
}

/** A local web site for crawls to fetch, listening on a free port until closed. */
export const startTestSite = async (handler: RequestListener): Promise<TestSite> => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
