import { AppError, ReplyEnvelope, type RequestOf, type ResponseOf, type ServiceMessage } from '@palaver/contracts';
import { RequestTimeoutError, type ServiceRequester } from './service-requester';

/**
 * Typed request/reply to another service. The request is validated before it leaves and the
 * response when it arrives; a catalogued error comes back as the same AppError.
 */
export class ServiceClient {
  constructor(
    private readonly requester: ServiceRequester,
    private readonly timeoutMs = 30_000,
  ) {}

  async send<M extends ServiceMessage>(message: M, request: RequestOf<M>, options: { timeoutMs?: number } = {}): Promise<ResponseOf<M>> {
    const payload = message.request.parse(request);
    let raw: unknown;
    try {
      raw = await this.requester.request(message.subject, payload, options.timeoutMs ?? this.timeoutMs);
    } catch (err) {
      throw unavailable(message.subject, err);
    }
    const envelope = ReplyEnvelope.parse(raw);
    if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message, envelope.error.details);
    return message.response.parse(envelope.data) as ResponseOf<M>;
  }

  async close(): Promise<void> {
    await this.requester.close();
  }
}

const unavailable = (subject: string, err: unknown): AppError => {
  const reason = err instanceof RequestTimeoutError ? 'timed out' : err instanceof Error ? err.message : String(err);
  return new AppError('SERVICE_UNAVAILABLE', `internal service did not answer (${subject}): ${reason}`, {
    retryAfter: 1,
    service: subject.split('.')[0],
  });
};
