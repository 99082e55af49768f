import { type CustomTransportStrategy, Server } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { InProcessBus } from './in-process.bus';
import { RequestTimeoutError, type ServiceRequester } from './service-requester';

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

/** Requests on the in-process bus, answered by the InProcessServer that registered the subject. */
export class InProcessClient implements ServiceRequester {
  constructor(private readonly bus: InProcessBus) {}

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
}
