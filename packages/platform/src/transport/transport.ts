import { ClientNats, ClientProxy, type CustomTransportStrategy, ServerNats } from '@nestjs/microservices';
import { InProcessBus } from './in-process.bus';
import { natsReconnectOptions } from './nats-options';
import { InProcessClient, InProcessServer } from './in-process.transport';

/** Where services answer requests: one in-process bus, or NATS with one queue group per service. */
export interface ServiceTransport {
  readonly kind: 'in-process' | 'nats';
  server(serviceName: string): CustomTransportStrategy;
  client(): ClientProxy<Record<never, Function>, any>;
}

export const inProcessTransport = (bus = new InProcessBus()): ServiceTransport => ({
  kind: 'in-process',
  server: () => new InProcessServer(bus),
  client: () => new InProcessClient(bus),
});

export const natsTransport = (url: string): ServiceTransport => ({
  kind: 'nats',
  server: (serviceName) => new ServerNats({ servers: [url], queue: serviceName, ...natsReconnectOptions }),
  client: () => new ClientNats({ servers: [url], ...natsReconnectOptions }),
});
