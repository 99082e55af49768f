import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { GENERATE_COMPLETION_JOB, GENERATE_REPLY_JOB, INFERENCE_QUEUE } from '@palaver/contracts';
import { type Config, type JobQueue, type JobWorker, jobsByName, Ports } from '@palaver/platform';
import { GenerateCompletionService } from '../services/generate-completion.service';
import { GenerateReplyService } from '../services/generate-reply.service';

/** Takes jobs from the inference queue once the service is up; stops taking them when it closes. */
@Injectable()
export class InferenceQueueConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: JobWorker | null = null;

  constructor(
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(GenerateReplyService) private readonly replies: GenerateReplyService,
    @Inject(GenerateCompletionService) private readonly completions: GenerateCompletionService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const run = jobsByName('inference', {
      [GENERATE_REPLY_JOB]: (job) => this.replies.process(job),
      [GENERATE_COMPLETION_JOB]: (job) => this.completions.process(job),
    });
    this.worker = await this.jobs.process(INFERENCE_QUEUE, run, { concurrency: this.config.INFERENCE_CONCURRENCY });
  }

  /** Waits for the replies in progress, so that each still ends with its terminal chunk. */
  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    this.worker = null;
  }
}
