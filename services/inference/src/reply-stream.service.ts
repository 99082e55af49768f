import { AppError, type FinishReason, type Usage } from '@palaver/contracts';
import { type ChatModel, type ChatRequest, Ports } from '@palaver/platform';
import { Inject, Injectable } from '@nestjs/common';
import { TokenChannel } from './token-channel.service';

export type StreamOutcome =
  | { ok: true; text: string; finishReason: FinishReason; usage: Usage; toolCalls: string[] }
  | { ok: false; error: unknown; partialText: string };

/** Streams the chat model, publishing each fragment on the reply's channel as it comes. */
@Injectable()
export class ReplyStreamService {
  constructor(
    @Inject(Ports.chatModel) private readonly model: ChatModel,
    @Inject(TokenChannel) private readonly channel: TokenChannel,
  ) {}

  async stream(replyId: string, request: ChatRequest): Promise<StreamOutcome> {
    let text = '';
    try {
      for await (const chunk of this.model.stream(request)) {
        if (chunk.type === 'finish') {
          return { ok: true, text, finishReason: chunk.finishReason, usage: chunk.usage, toolCalls: chunk.toolCalls ?? [] };
        }
        if (!chunk.delta) continue;
        text += chunk.delta;
        await this.channel.publish(replyId, { type: 'delta', delta: chunk.delta });
      }
      const error = new AppError('BAD_GATEWAY', 'the chat model stopped without finishing', { service: 'llm' });
      return { ok: false, error, partialText: text };
    } catch (error) {
      return { ok: false, error, partialText: text };
    }
  }
}
