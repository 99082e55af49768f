import { Inject, Injectable } from '@nestjs/common';
import { GENERATE_COMPLETION_JOB, type GenerateCompletionJob, INFERENCE_QUEUE } from '@palaver/contracts';
import { type JobQueue, Ports } from '@palaver/platform';
import { INFERENCE_JOB_ATTEMPTS } from '../domain/inference.settings';

@Injectable()
export class CompletionService {
  constructor(@Inject(Ports.jobs) private readonly jobs: JobQueue) {}

  /** Queues the completion; the reply id is the job id, so a repeated request does not run twice. */
  async start(job: GenerateCompletionJob): Promise<{ ok: true }> {
    await this.jobs.enqueue(INFERENCE_QUEUE, GENERATE_COMPLETION_JOB, job, {
      jobId: job.replyId,
      attempts: INFERENCE_JOB_ATTEMPTS,
    });
    return { ok: true };
  }
}
