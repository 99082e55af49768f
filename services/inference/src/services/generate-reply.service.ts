import { Inject, Injectable } from '@nestjs/common';
import { GenerateReplyJob, HANDOFF_NOTICE, HANDOFF_TOOL, REPLY_INTERRUPTED, type ReplyAddress, ZERO_USAGE } from '@palaver/contracts';
import { type Job, jobData, logger } from '@palaver/platform';
import { isDeclined } from '../domain/declined-reply';
import { isGrounded } from '../domain/qna-override';
import { describeFailure, errorChunkOf } from '../domain/reply-failure';
import { ReplyStops } from '../repositories/reply-stops';
import { TokenChannel } from '../repositories/token-channel';
import { ReplyPromptService } from './reply-prompt.service';
import { ReplyReportService } from './reply-report.service';
import { outcomeOf, ReplyStreamService, type StreamOutcome } from './reply-stream.service';

/**
 * Answers a visitor message: prompt (or a Q&A entry's answer verbatim, see `overridingQna`), stream on the reply's channel, then record the outcome with
 * the conversation service and publish the terminal chunk (finish or error), in that order, so
 * that whoever sees the end of the stream finds the message stored. Never throws: see
 * INFERENCE_JOB_ATTEMPTS.
 */
@Injectable()
export class GenerateReplyService {
  constructor(
    @Inject(ReplyPromptService) private readonly prompts: ReplyPromptService,
    @Inject(ReplyStreamService) private readonly streamer: ReplyStreamService,
    @Inject(ReplyReportService) private readonly reports: ReplyReportService,
    @Inject(TokenChannel) private readonly channel: TokenChannel,
    @Inject(ReplyStops) private readonly stops: ReplyStops,
  ) {}

  async process(job: Job): Promise<void> {
    const data = jobData(GenerateReplyJob, job);
    if (!data) return;
    const replyId = data.assistantMessageId;
    const reply = { replyId, replyTo: data.replyTo, streamed: data.streamed, replayable: true };
    const ids = { projectId: data.projectId, conversationId: data.conversationId, messageId: replyId };

    if (job.attempt > 1) return this.interrupted(ids, reply);
    logger.info({ jobId: job.id, ...ids }, 'generating reply');

    // A stop (POST .../stop) stores the reply and ends its streams itself: only the model call is left to cancel.
    const stop = this.stops.track(replyId);
    let grounded: boolean | undefined;
    const outcome = await outcomeOf(async () => {
      stop.signal.throwIfAborted();
      const request = await this.prompts.prepare(data);
      request.signal = stop.signal;
      grounded = isGrounded(request.grounding);
      const verbatim = await this.prompts.verbatimAnswer(data.projectId, request.grounding);
      return verbatim ? this.answerVerbatim(reply, verbatim.answer) : this.streamer.stream(reply, request);
    });
    stop.release();
    if (stop.signal.aborted) {
      logger.info(ids, 'reply stopped by the visitor');
      return;
    }

    if (outcome.ok) {
      const { usage, sources } = outcome;
      const wantsHuman = data.handoffTool === true && outcome.toolCalls.includes(HANDOFF_TOOL.name);
      const finishReason = wantsHuman ? 'stop' : outcome.finishReason;
      let text = outcome.text;
      if (wantsHuman && text.trim().length === 0) {
        // The model only called the tool: the visitor is told, as with a trigger phrase.
        text = HANDOFF_NOTICE;
        await this.channel.publish(reply, { type: 'delta', delta: text });
      }
      try {
        await this.reports.completed({ text, finishReason, usage, sources, ...answerFlags(text, grounded), ...ids });
        if (wantsHuman) await this.reports.handoffRequested({ projectId: data.projectId, conversationId: data.conversationId });
      } catch (err) {
        logger.error({ err, ...ids }, 'could not record the completed reply');
        await this.channel.publish(reply, errorChunkOf(describeFailure(err)));
        return;
      }
      await this.channel.publish(reply, { type: 'finish', text, finishReason, usage, sources });
      return;
    }

    const failure = describeFailure(outcome.error);
    logger.warn({ err: outcome.error, ...ids }, 'reply failed');
    try {
      await this.reports.failed({ error: failure.message, partialText: outcome.partialText, ...ids });
    } catch (err) {
      logger.error({ err, ...ids }, 'could not record the failed reply');
    }
    await this.channel.publish(reply, errorChunkOf(failure));
  }

  /** A Q&A entry's answer as the reply: published whole, the model not called. */
  private async answerVerbatim(reply: ReplyAddress, answer: string): Promise<StreamOutcome> {
    // A quiet reply (`streamed: false`) reads only the terminal chunk, which carries the whole text.
    if (reply.streamed !== false) await this.channel.publish(reply, { type: 'delta', delta: answer, sources: [] });
    return { ok: true, text: answer, finishReason: 'stop', usage: ZERO_USAGE, sources: [], toolCalls: [] };
  }

  /**
   * A second run means the first one's worker died (kill -9, lost its lock): it may have
   * streamed part of the reply already, and a model cannot be resumed where it stopped. So the
   * reply ends as failed rather than streaming its text a second time (see docs/deployment.md).
   * The text streamed so far is in the reply log, and the gateway that relayed it has it too. So
   * the error goes out first, marked `interrupted`: the listener stores the failure with the text
   * it relayed, then tells the visitor. Only after `INTERRUPTED_LISTENER_GRACE_MS` is it stored
   * from here, with the text the reply log holds, for a reply nobody listened to any more (a
   * visitor who reloaded; a no-op once stored).
   */
  private async interrupted(ids: { projectId: string; conversationId: string; messageId: string }, reply: ReplyAddress): Promise<void> {
    logger.warn(ids, 'reply interrupted: its worker stopped mid-reply');
    await this.channel.publish(reply, { type: 'error', code: 'SERVICE_UNAVAILABLE', error: REPLY_INTERRUPTED, interrupted: true });
    await new Promise((resolve) => setTimeout(resolve, INTERRUPTED_LISTENER_GRACE_MS));
    try {
      const partialText = await this.channel.textSoFar(ids.messageId);
      await this.reports.failed({ error: REPLY_INTERRUPTED, partialText, ...ids });
    } catch (err) {
      logger.error({ err, ...ids }, 'could not record the interrupted reply');
    }
  }
}

/** How long the listener of an interrupted reply has to store it with its text (see `interrupted`). */
export const INTERRUPTED_LISTENER_GRACE_MS = 3_000;

/**
 * Whether the reply declined, decided here where the text is in clear (the event stream carries it
 * sealed, see docs/privacy.md), and whether it was grounded. The handoff notice is neither: the
 * visitor was passed to a person, not left unanswered.
 */
const answerFlags = (text: string, grounded: boolean | undefined): { declined: boolean; grounded?: boolean } => {
  if (text === HANDOFF_NOTICE) return { declined: false };
  return { declined: isDeclined(text), ...(grounded === undefined ? {} : { grounded }) };
};
