import { ClientProxy, type CustomTransportStrategy, type ReadPacket, Server, type WritePacket } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
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
      this.unregister.push(this.bus.register(pattern, async (data) => lastValueFrom(this.transformToObservable(await handler(data)))));
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
