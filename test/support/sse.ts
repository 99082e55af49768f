export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

/**
 * An open text/event-stream: `until` waits (bounded) for an event matching the predicate,
 * collecting everything before it. `close` aborts the request.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  private buffer = '';
  private waiters: Array<() => void> = [];
  private readonly controller = new AbortController();

  status = 0;
  headers: Headers = new Headers();
  /** The JSON error body when the stream did not open. */
  error: any = null;
  /** Until the stream has ended (the server closed it, or `close`), or did not open. */
  open = false;
  private endedAt: (() => void) | null = null;
  /** Resolves once the stream has ended: the server ended it, or `close` aborted it. */
  readonly ended = new Promise<void>((resolve) => {
    this.endedAt = resolve;
  });

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const client = new SseClient();
    const response = await fetch(url, { headers, signal: client.controller.signal });
    client.status = response.status;
    client.headers = response.headers;
    if (response.ok && response.body) {
      client.open = true;
      void client.pump(response.body).finally(() => {
        client.open = false;
        client.endedAt?.();
      });
    } else {
      client.error = JSON.parse((await response.text()) || 'null');
      client.endedAt?.();
    }
    return client;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        this.buffer += decoder.decode(chunk, { stream: true });
        for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          this.parse(block);
        }
      }
    } catch {
      // aborted
    }
  }

  private parse(block: string): void {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length === 0) return;
    this.events.push({ id, event, data: JSON.parse(data.join('\n')) });
    for (const wake of this.waiters.splice(0)) wake();
  }

  async until(predicate: (event: SseEvent) => boolean, timeoutMs = 5_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.event))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }
}
