import { Inject, Injectable } from '@nestjs/common';
import { GENERATE_COMPLETION_JOB, GENERATE_REPLY_JOB, INFERENCE_QUEUE } from '@palaver/contracts';
import { type Config, type JobQueue, Ports, QueueConsumer, type QueueConsumption } from '@palaver/platform';
import { GenerateCompletionService } from '../services/generate-completion.service';
import { GenerateReplyService } from '../services/generate-reply.service';

/**
 * Takes jobs from the inference queue once the service is up; stops taking them when it closes,
 * waiting for the replies in progress, so that each still ends with its terminal chunk.
 */
@Injectable()
export class InferenceQueueConsumer extends QueueConsumer {
  constructor(
    @Inject(Ports.jobs) jobs: JobQueue,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(GenerateReplyService) private readonly replies: GenerateReplyService,
    @Inject(GenerateCompletionService) private readonly completions: GenerateCompletionService,
  ) {
    super(jobs);
  }

  protected consumption(): QueueConsumption {
    return {
      queue: INFERENCE_QUEUE,
      handlers: {
        [GENERATE_REPLY_JOB]: (job) => this.replies.process(job),
        [GENERATE_COMPLETION_JOB]: (job) => this.completions.process(job),
      },
      concurrency: this.config.INFERENCE_CONCURRENCY,
    };
  }
}
