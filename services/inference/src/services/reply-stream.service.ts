import { Inject, Injectable } from '@nestjs/common';
import { AppError, type FinishReason, QUIET_REPLY_PROGRESS_MS, type ReplyAddress, type ReplySource, type Usage } from '@palaver/contracts';
import { type ChatModel, type ChatRequest, Ports } from '@palaver/platform';
import { groundingSources } from '../domain/reply-sources';
import { TokenChannel } from '../repositories/token-channel';

export type StreamOutcome =
  | { ok: true; text: string; finishReason: FinishReason; usage: Usage; sources: ReplySource[]; toolCalls: string[] }
  | { ok: false; error: unknown; partialText: string };

/**
 * Streams the chat model, publishing each fragment on the reply's channel as it comes, or, for a
 * quiet reply (`streamed: false`), the text generated since the last publication at most every
 * `QUIET_REPLY_PROGRESS_MS` (the terminal chunk carries the whole text). The first fragment
 * published carries the reply's sources: those the model names (the local responder names the
 * document it quotes), else the documents it was given.
 */
@Injectable()
export class ReplyStreamService {
  constructor(
    @Inject(Ports.chatModel) private readonly model: ChatModel,
    @Inject(TokenChannel) private readonly channel: TokenChannel,
  ) {}

  async stream(reply: ReplyAddress, request: ChatRequest): Promise<StreamOutcome> {
    let text = '';
    /** The text not yet published, and when the last fragment was (none yet: null). */
    let unpublished = '';
    let publishedAt: number | null = null;
    const startedAt = performance.now();
    let sources: ReplySource[] | null = null;
    const settledSources = (): ReplySource[] => (sources ??= groundingSources(request.grounding));
    try {
      for await (const chunk of this.model.stream(request)) {
        if (chunk.type === 'sources') {
          sources ??= chunk.sources;
          continue;
        }
        if (chunk.type === 'finish') {
          return {
            ok: true,
            text,
            finishReason: chunk.finishReason,
            usage: chunk.usage,
            sources: settledSources(),
            toolCalls: chunk.toolCalls ?? [],
          };
        }
        if (!chunk.delta) continue;
        text += chunk.delta;
        unpublished += chunk.delta;
        if (reply.streamed === false && performance.now() - (publishedAt ?? startedAt) < QUIET_REPLY_PROGRESS_MS) continue;
        await this.channel.publish(
          reply,
          publishedAt === null ? { type: 'delta', delta: unpublished, sources: settledSources() } : { type: 'delta', delta: unpublished },
        );
        unpublished = '';
        publishedAt = performance.now();
      }
      const error = new AppError('BAD_GATEWAY', 'the chat model stopped without finishing', { service: 'llm' });
      return { ok: false, error, partialText: text };
    } catch (error) {
      return { ok: false, error, partialText: text };
    }
  }
}

/** Runs what prepares and streams a reply; a failure before the stream (the prompt, the knowledge) is an outcome with no text. */
export const outcomeOf = async (streamReply: () => Promise<StreamOutcome>): Promise<StreamOutcome> => {
  try {
    return await streamReply();
  } catch (error) {
    return { ok: false, error, partialText: '' };
  }
};
