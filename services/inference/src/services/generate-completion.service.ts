import { Inject, Injectable } from '@nestjs/common';
import { GenerateCompletionJob } from '@palaver/contracts';
import { type Job, jobData, logger } from '@palaver/platform';
import { describeFailure, errorChunkOf } from '../domain/reply-failure';
import { TokenChannel } from '../repositories/token-channel';
import { ReplyPromptService } from './reply-prompt.service';
import { outcomeOf, ReplyStreamService } from './reply-stream.service';

/**
 * A stateless completion: the given messages after the assistant's instructions and knowledge,
 * streamed on the reply's channel and ended with a finish or error chunk. Nothing is recorded.
 * Never throws: see INFERENCE_JOB_ATTEMPTS.
 */
@Injectable()
export class GenerateCompletionService {
  constructor(
    @Inject(ReplyPromptService) private readonly prompts: ReplyPromptService,
    @Inject(ReplyStreamService) private readonly streamer: ReplyStreamService,
    @Inject(TokenChannel) private readonly channel: TokenChannel,
  ) {}

  async process(job: Job): Promise<void> {
    const data = jobData(GenerateCompletionJob, job);
    if (!data) return;
    const reply = { replyId: data.replyId, replyTo: data.replyTo, streamed: data.streamed };

    const outcome = await outcomeOf(async () => {
      const request = await this.prompts.prepare({
        projectId: data.projectId,
        assistantId: data.assistantId,
        history: data.messages,
        pageContext: null,
      });
      return this.streamer.stream(reply, request);
    });

    if (outcome.ok) {
      const { text, finishReason, usage } = outcome;
      await this.channel.publish(reply, { type: 'finish', text, finishReason, usage });
      return;
    }
    logger.warn({ err: outcome.error, projectId: data.projectId, replyId: data.replyId }, 'completion failed');
    await this.channel.publish(reply, errorChunkOf(describeFailure(outcome.error)));
  }
}
