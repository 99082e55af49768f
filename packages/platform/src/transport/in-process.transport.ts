import { ClientProxy, type CustomTransportStrategy, type ReadPacket, Server, type WritePacket } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { InProcessBus } from './in-process.bus';

/** @nestjs/microservices server strategy on the in-process bus. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  private unregister: Array<() => void> = [];

  constructor(private readonly bus: InProcessBus) {
    super();
  }

  listen(callback: () => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      this.unregister.push(
        this.bus.register(pattern, async (data) => {
          const result: unknown = await handler(data);
          return isObservable(result) ? lastValueFrom(result) : result;
        }),
      );
    }
    callback();
  }

  close(): void {
    for (const off of this.unregister) off();
    this.unregister = [];
  }

  on(): void {}

  unwrap<T>(): T {
    return this.bus as T;
  }
}

/** @nestjs/microservices client on the in-process bus. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly bus: InProcessBus) {
    super();
  }

  async connect(): Promise<void> {}

  /**
   * The request as a promise, without the Observable that ClientProxy.send wraps around it (on the
   * embedded hot path that wrapping cost as much as the call). Rejects with RequestTimeoutError.
   */
  request(subject: string, data: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new RequestTimeoutError(subject, timeoutMs)), timeoutMs);
      this.bus.request(subject, data).then(
        (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  close(): void {}

  unwrap<T>(): T {
    return this.bus as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    this.bus.request(this.normalizePattern(packet.pattern), packet.data).then(
      (response) => callback({ response, isDisposed: true }),
      (err: unknown) => callback({ err, isDisposed: true }),
    );
    return () => {};
  }

  protected async dispatchEvent<T>(): Promise<T> {
    throw new Error('events travel on the event stream port, not the request transport');
  }
}

export class RequestTimeoutError extends Error {
  constructor(subject: string, timeoutMs: number) {
    super(`${subject} timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}
