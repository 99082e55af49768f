import { AppError, ReplyEnvelope, type RequestOf, type ResponseOf, type ServiceMessage } from '@palaver/contracts';
import { idAttributes, inSpan, operationName, SpanKind } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';
import { RequestTimeoutError, ResponderLostError, type ServiceRequester } from './service-requester';

export interface SendOptions {
  timeoutMs?: number;
  /**
   * Whether the request may be sent again when the instance that took it was lost before
   * answering (ResponderLostError): it may have done the work already. Default: queries only
   * (`<service>.qry.<name>` subjects); a command whose handler is idempotent by its ids can say so.
   */
  idempotent?: boolean;
}

/**
 * Typed request/reply to another service. The request is validated before it leaves and the
 * response when it arrives; a catalogued error comes back as the same AppError. A request that
 * cannot be answered (a connection down, no instance, a timeout) fails with SERVICE_UNAVAILABLE
 * and a retry hint; one whose instance was lost (kill -9) is sent once more when it is idempotent,
 * to whichever instance serves the subject then.
 */
export class ServiceClient {
  constructor(
    private readonly requester: ServiceRequester,
    private readonly timeoutMs = 30_000,
  ) {}

  send<M extends ServiceMessage>(message: M, request: RequestOf<M>, options: SendOptions = {}): Promise<ResponseOf<M>> {
    if (!tracingEnabled()) return this.sendNow(message, request, options);
    return inSpan(`${operationName(message.subject)} send`, idAttributes(request), () => this.sendNow(message, request, options), {
      kind: SpanKind.CLIENT,
    });
  }

  private async sendNow<M extends ServiceMessage>(message: M, request: RequestOf<M>, options: SendOptions): Promise<ResponseOf<M>> {
    const payload = message.request.parse(request);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let raw: unknown;
    try {
      raw = await this.requester.request(message.subject, payload, timeoutMs);
    } catch (err) {
      if (!(err instanceof ResponderLostError) || !(options.idempotent ?? isQuery(message.subject)))
        throw unavailable(message.subject, err);
      raw = await this.sendAgain(message.subject, payload, timeoutMs);
    }
    const envelope = ReplyEnvelope.parse(raw);
    if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message, envelope.error.details);
    return message.response.parse(envelope.data) as ResponseOf<M>;
  }

  async close(): Promise<void> {
    await this.requester.close();
  }

  /** The one retry of a request whose instance was lost. */
  private async sendAgain(subject: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    try {
      return await this.requester.request(subject, payload, timeoutMs);
    } catch (err) {
      throw unavailable(subject, err);
    }
  }
}

const isQuery = (subject: string): boolean => subject.includes('.qry.');

const unavailable = (subject: string, err: unknown): AppError => {
  // Already said (a connection this process needs is down).
  if (err instanceof AppError) return err;
  const reason = err instanceof RequestTimeoutError ? 'timed out' : err instanceof Error ? err.message : String(err);
  return new AppError('SERVICE_UNAVAILABLE', `internal service did not answer (${subject}): ${reason}`, {
    retryAfter: 1,
    service: subject.split('.')[0],
  });
};
