import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { AssistantCache } from './assistant-cache.service';
import { CompletionService } from './completion.service';
import { GenerateCompletionProcessor } from './generate-completion.processor';
import { GenerateReplyProcessor } from './generate-reply.processor';
import { InferenceHandler } from './handlers/inference.handler';
import { InferenceWorker } from './inference.worker';
import { ReplyPromptService } from './reply-prompt.service';
import { ReplyReportService } from './reply-report.service';
import { ReplyStreamService } from './reply-stream.service';
import { TokenChannel } from './token-channel.service';

@Module({})
export class InferenceModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: InferenceModule,
      controllers: [InferenceHandler],
      providers: [
        ...portProviders(infra, 'jobs', 'pubsub', 'chatModel', 'config', 'services'),
        TokenChannel,
        AssistantCache,
        ReplyPromptService,
        ReplyStreamService,
        ReplyReportService,
        GenerateReplyProcessor,
        GenerateCompletionProcessor,
        InferenceWorker,
        CompletionService,
      ],
    };
  }
}
