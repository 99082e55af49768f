import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { type Config, OutboundFetchError, type OutboundGuard, OutboundRefusedError, Ports } from '@palaver/platform';
import { Webhook } from 'standardwebhooks';
import type { AttemptResult } from '../domain/webhook-attempt.decider';
import { WEBHOOK_OUTBOUND_GUARD } from './outbound-guard.provider';

/** What is kept of a receiver's answer: its status matters, its body does not. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SignedRequest {
  url: string;
  secret: string;
  /** The `webhook-id`: the event's id, the same on every attempt. */
  messageId: string;
  body: string;
  at: Date;
}

/**
 * POSTs one signed delivery (Standard Webhooks headers, signed by the `standardwebhooks` package)
 * through the outbound guard: the host's addresses are checked after DNS resolution, at
 * connection time; redirects are not followed (a 3xx is a failed attempt).
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  constructor(
    @Inject(WEBHOOK_OUTBOUND_GUARD) private readonly guard: OutboundGuard,
    @Inject(Ports.config) private readonly config: Config,
  ) {}

  async send({ url, secret, messageId, body, at }: SignedRequest): Promise<AttemptResult> {
    const signature = new Webhook(secret).sign(messageId, at, body);
    try {
      const response = await this.guard.fetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        maxRedirects: 0,
        maxBytes: MAX_RESPONSE_BYTES,
      });
      return { kind: 'response', status: response.status };
    } catch (err) {
      if (err instanceof OutboundFetchError && /redirects/.test(err.message)) {
        return { kind: 'error', message: 'the endpoint redirected; redirects are not followed' };
      }
      if (err instanceof OutboundRefusedError || err instanceof OutboundFetchError) return { kind: 'error', message: err.message };
      throw err;
    }
  }

  onModuleDestroy(): void {
    this.guard.close();
  }
}
