import { jsonCopy } from '../json/json-copy';
import { NoRespondersError } from './service-requester';

type Handler = (data: unknown) => Promise<unknown>;

/**
 * The embedded service transport: subjects map to handlers, several handlers of one subject take
 * turns (like a NATS queue group). Payloads cross as JSON so that nothing is shared by reference,
 * exactly as over the wire.
 */
export class InProcessBus {
  private readonly handlers = new Map<string, Handler[]>();
  private readonly turns = new Map<string, number>();

  register(subject: string, handler: Handler): () => void {
    const list = this.handlers.get(subject) ?? [];
    list.push(handler);
    this.handlers.set(subject, list);
    return () => {
      const current = this.handlers.get(subject) ?? [];
      this.handlers.set(
        subject,
        current.filter((h) => h !== handler),
      );
    };
  }

  async request(subject: string, data: unknown): Promise<unknown> {
    const list = this.handlers.get(subject);
    if (!list || list.length === 0) throw new NoRespondersError(subject);
    const turn = this.turns.get(subject) ?? 0;
    this.turns.set(subject, turn + 1);
    const handler = list[turn % list.length]!;
    const reply = await handler(wire(data));
    return wire(reply);
  }
}

/** The payload as the other side of a wire would get it (see jsonCopy). */
const wire = (value: unknown): unknown => (value === undefined ? undefined : jsonCopy(value));
