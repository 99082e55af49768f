import { Inject, Injectable } from '@nestjs/common';
import { GenerateCompletionJob } from '@palaver/contracts';
import { type Job, logger } from '@palaver/platform';
import { describeFailure } from '../domain/reply-failure';
import { TokenChannel } from '../repositories/token-channel';
import { ReplyPromptService } from './reply-prompt.service';
import { ReplyStreamService, type StreamOutcome } from './reply-stream.service';

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
    const parsed = GenerateCompletionJob.safeParse(job.data);
    if (!parsed.success) {
      logger.error({ jobId: job.id, issues: parsed.error.issues }, 'invalid generate-completion job dropped');
      return;
    }
    const data = parsed.data;
    const reply = { replyId: data.replyId, replyTo: data.replyTo, streamed: data.streamed };

    let outcome: StreamOutcome;
    try {
      const request = await this.prompts.prepare({
        projectId: data.projectId,
        assistantId: data.assistantId,
        history: data.messages,
        pageContext: null,
      });
      outcome = await this.streamer.stream(reply, request);
    } catch (error) {
      outcome = { ok: false, error, partialText: '' };
    }

    if (outcome.ok) {
      const { text, finishReason, usage } = outcome;
      await this.channel.publish(reply, { type: 'finish', text, finishReason, usage });
      return;
    }
    const failure = describeFailure(outcome.error);
    logger.warn({ err: outcome.error, projectId: data.projectId, replyId: data.replyId }, 'completion failed');
    await this.channel.publish(reply, { type: 'error', code: failure.code, error: failure.message });
  }
}
