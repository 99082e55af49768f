import { GENERATE_REPLY_JOB, INFERENCE_QUEUE } from '@palaver/contracts';
import { ManualClock } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST_HELLO, REPLY_1, START } from '../testing/conversation.fixtures';
import { wire } from '../testing/conversation.wiring';
import { INTERRUPTED_REPLY_ERROR, StaleReplySweeper } from './stale-reply.sweeper';

let infra: TestInfrastructure;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(new Date());
  infra = await createTestInfrastructure({ clock });
});
afterEach(async () => {
  await infra.cleanup();
});

/** A conversation whose reply REPLY_1 is streaming, with no job enqueued for it. */
const streamingReply = async () => {
  const service = wire(infra);
  await service.executor.execute(START);
  await service.executor.execute(POST_HELLO);
  const sweeper = new StaleReplySweeper(service.messages, infra.jobs, service.executor, service.relay, clock);
  const reply = async () => (await service.readModel.messages.findOne({ _id: REPLY_1 }))!;
  return { sweeper, reply };
};

describe('StaleReplySweeper', () => {
  it('fails a streaming reply whose job no longer exists, keeping what it had', async () => {
    const { sweeper, reply } = await streamingReply();
    expect((await reply()).status).toBe('streaming');
    clock.advance(10_000);
    expect(await sweeper.sweep()).toBe(1);
    expect(await reply()).toMatchObject({ status: 'error', error: INTERRUPTED_REPLY_ERROR });
    expect(await sweeper.sweep()).toBe(0);
  });

  it('leaves a reply whose job still exists (waiting, running or retrying)', async () => {
    const { sweeper, reply } = await streamingReply();
    await infra.jobs.enqueue(INFERENCE_QUEUE, GENERATE_REPLY_JOB, {}, { jobId: REPLY_1 });
    clock.advance(10_000);
    expect(await sweeper.sweep()).toBe(0);
    expect((await reply()).status).toBe('streaming');
  });

  it('leaves a reply just started (its job may not be enqueued yet) until the grace period is over', async () => {
    const { sweeper, reply } = await streamingReply();
    expect(await sweeper.sweep()).toBe(0);
    expect((await reply()).status).toBe('streaming');
    clock.advance(3_001);
    expect(await sweeper.sweep()).toBe(1);
  });
});
