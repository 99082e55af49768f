import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { InferenceQueueConsumer } from './consumers/inference-queue.consumer';
import { InferenceHandler } from './handlers/inference.handler';
import { AssistantCache } from './repositories/assistant-cache';
import { ReplyStops } from './repositories/reply-stops';
import { TokenChannel } from './repositories/token-channel';
import { CompletionService } from './services/completion.service';
import { GenerateCompletionService } from './services/generate-completion.service';
import { GenerateReplyService } from './services/generate-reply.service';
import { ReplyPromptService } from './services/reply-prompt.service';
import { ReplyReportService } from './services/reply-report.service';
import { ReplyStreamService } from './services/reply-stream.service';

@Module({})
export class InferenceModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: InferenceModule,
      controllers: [InferenceHandler],
      providers: [
        ...portProviders(infra, 'jobs', 'pubsub', 'replyLog', 'chatModel', 'config', 'services'),
        TokenChannel,
        ReplyStops,
        AssistantCache,
        ReplyPromptService,
        ReplyStreamService,
        ReplyReportService,
        GenerateReplyService,
        GenerateCompletionService,
        InferenceQueueConsumer,
        CompletionService,
      ],
    };
  }
}
