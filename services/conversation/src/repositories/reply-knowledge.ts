import { Inject, Injectable } from '@nestjs/common';
import { type Retrieval, replyRetrievalRequest, SearchMessages } from '@palaver/contracts';
import { logger, Ports, type ServiceClient } from '@palaver/platform';

/** Longer than a retrieval takes (an embedding call included), short enough not to hold a reply up for long. */
const PREFETCH_TIMEOUT_MS = 2_000;

/**
 * The knowledge a reply is grounded on, asked of search as soon as the message arrives: it comes
 * back while the message is being stored (its fsync), instead of after a worker has taken the
 * reply's job, and travels in the job (GenerateReplyJob.knowledge). A message that starts no reply
 * (a conversation a person handles) costs one search for nothing.
 */
@Injectable()
export class ReplyKnowledge {
  constructor(@Inject(Ports.services) private readonly services: ServiceClient) {}

  /** Never rejects: without an answer (search down, slow, failing) the job goes without, and the worker asks itself. */
  async prefetch(projectId: string, content: string): Promise<Retrieval | null> {
    const question = content.trim();
    if (!question) return null;
    try {
      return await this.services.send(SearchMessages.retrieve, replyRetrievalRequest(projectId, question), {
        timeoutMs: PREFETCH_TIMEOUT_MS,
      });
    } catch (err) {
      logger.warn({ err, projectId }, 'retrieval for a reply failed; its worker will ask again');
      return null;
    }
  }
}
