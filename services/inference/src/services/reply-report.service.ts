import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, ConversationMessages, type RequestOf, type ServiceMessage } from '@palaver/contracts';
import { Ports, type ServiceClient } from '@palaver/platform';
import { REPORT_RETRY_DELAYS_MS } from '../domain/inference.settings';

/** Tells the conversation service how a reply ended. Both commands are idempotent, so they are retried. */
@Injectable()
export class ReplyReportService {
  constructor(@Inject(Ports.services) private readonly services: ServiceClient) {}

  async completed(request: RequestOf<typeof ConversationMessages.completeReply>): Promise<void> {
    await this.send(ConversationMessages.completeReply, request);
  }

  async failed(request: RequestOf<typeof ConversationMessages.failReply>): Promise<void> {
    await this.send(ConversationMessages.failReply, request);
  }

  /** The model asked for a person: queue the conversation (idempotent). */
  async handoffRequested(request: { projectId: string; conversationId: string }): Promise<void> {
    await this.send(ConversationMessages.requestHandoff, { ...request, source: 'visitor' });
  }

  private async send<M extends ServiceMessage>(message: M, request: RequestOf<M>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.services.send(message, request);
        return;
      } catch (err) {
        const delay = REPORT_RETRY_DELAYS_MS[attempt];
        if (!(err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE') || delay === undefined) throw err;
        await sleep(delay);
      }
    }
  }
}
