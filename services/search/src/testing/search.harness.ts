import { ReplyEnvelope, type RequestOf, type ResponseOf, type ServiceMessage } from '@palaver/contracts';
import type { Clock, Embedder, RunningService } from '@palaver/platform';
import { createTestInfrastructure } from '@palaver/platform/testing';
import { startSearchService } from '../index';

export type SearchHarness = Awaited<ReturnType<typeof startSearchHarness>>;

/**
 * The search service on embedded adapters in a temporary DATA_DIR, reached over the service
 * transport; `embedder` replaces the local one (to run as with an embedding model).
 */
export const startSearchHarness = async (options: { clock?: Clock; embedder?: Embedder } = {}) => {
  const testInfra = await createTestInfrastructure({ clock: options.clock });
  const infra = options.embedder ? { ...testInfra, embedder: options.embedder } : testInfra;
  const service: RunningService = await startSearchService(infra);
  const client = infra.transport.client();

  return {
    infra,
    send: <M extends ServiceMessage>(message: M, request: RequestOf<M>): Promise<ResponseOf<M>> => infra.services.send(message, request),
    /** Sends without the client's validation, as a buggy or hostile caller would: the service must check. */
    sendRaw: async (message: ServiceMessage, payload: unknown): Promise<ReplyEnvelope> =>
      ReplyEnvelope.parse(await client.request(message.subject, payload, 30_000)),
    async close(): Promise<void> {
      await client.close();
      await service.close();
      await infra.cleanup();
    },
  };
};
