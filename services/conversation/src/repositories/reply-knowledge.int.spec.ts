import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AppError, INFERENCE_QUEUE, ConversationMessages as M, type Retrieval, SearchMessages } from '@palaver/contracts';
import { handle, type Job, type RunningService, startService } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startConversationService } from '../index';

/** What the search double was asked, and what it answers next. */
const search: { asked: unknown[]; answer: Retrieval | AppError } = { asked: [], answer: { qnas: [], chunks: [] } };

@Controller()
class SearchDouble {
  @MessagePattern(SearchMessages.retrieve.subject)
  retrieve(@Payload() raw: unknown) {
    return handle(SearchMessages.retrieve, raw, async (req) => {
      search.asked.push(req);
      if (search.answer instanceof AppError) throw search.answer;
      return search.answer;
    });
  }
}

@Module({ controllers: [SearchDouble] })
class SearchDoubleModule {}

const SHIPPING: Retrieval = {
  qnas: [{ id: randomUUID(), question: 'Do you ship abroad?', answer: 'We ship to all of Europe.', score: 0.92 }],
  chunks: [],
};

let infra: TestInfrastructure;
let services: RunningService[];
let jobs: Job[];
const projectId = randomUUID();
const visitorId = randomUUID();

beforeEach(async () => {
  infra = await createTestInfrastructure();
  services = [await startConversationService(infra), await startService('search-double', { module: SearchDoubleModule }, infra)];
  jobs = [];
  await infra.jobs.process(INFERENCE_QUEUE, async (job) => {
    jobs.push(job);
  });
  search.asked = [];
});

afterEach(async () => {
  for (const service of services) await service.close();
  await infra.cleanup();
});

/** Posts a message to a new conversation and returns the data of the reply's job, once queued. */
const replyJobOf = async (content: string): Promise<Record<string, unknown>> => {
  const { id } = await infra.services.send(M.create, { projectId, visitorId, pageUrl: null });
  const assistantMessageId = randomUUID();
  const outcome = await infra.services.send(M.postMessage, {
    projectId,
    visitorId,
    conversationId: id,
    content,
    pageContext: null,
    assistantMessageId,
    assistantId: null,
    handoffTriggers: null,
  });
  expect(outcome.kind).toBe('reply');
  // The command answers once the job is queued.
  const job = jobs.find((j) => j.id === assistantMessageId);
  expect(job).toBeDefined();
  return job!.data as Record<string, unknown>;
};

describe("a reply's knowledge", () => {
  it('is asked of search for the trimmed message, and travels in the reply job', async () => {
    search.answer = SHIPPING;
    const job = await replyJobOf('  Do you ship to Norway?  ');
    expect(search.asked).toEqual([{ projectId, query: 'Do you ship to Norway?', qnaLimit: 3, chunkLimit: 5 }]);
    expect(job.knowledge).toEqual(SHIPPING);
  });

  it('is left to the worker when search fails: the job goes without it, and the reply still starts', async () => {
    search.answer = new AppError('SERVICE_UNAVAILABLE', 'search is down');
    const job = await replyJobOf('Do you ship to Norway?');
    expect(search.asked).toHaveLength(1);
    expect(job).not.toHaveProperty('knowledge');
    expect(job.history).toEqual([{ role: 'user', content: 'Do you ship to Norway?' }]);
  });
});
