import { ClientNats, type ClientProxy, type CustomTransportStrategy } from '@nestjs/microservices';
import { InProcessBus } from './in-process.bus';
import { InProcessClient, InProcessServer } from './in-process.transport';
import { natsConnectionOptions } from './nats-options';
import { SubjectServerNats } from './nats-server';

/**
 * A Nest client of any transport. Its status type parameter is invariant and differs per transport
 * (NATS has its own), so no narrower type admits them all.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
// biome-ignore lint/complexity/noBannedTypes: Nest's own event-map bound
export type AnyClientProxy = ClientProxy<Record<never, Function>, any>;

/** Where services answer requests: one in-process bus, or NATS with one queue group per service. */
export interface ServiceTransport {
  readonly kind: 'in-process' | 'nats';
  server(serviceName: string): CustomTransportStrategy;
  client(): AnyClientProxy;
}

export const inProcessTransport = (bus = new InProcessBus()): ServiceTransport => ({
  kind: 'in-process',
  server: () => new InProcessServer(bus),
  client: () => new InProcessClient(bus),
});

export const natsTransport = (url: string): ServiceTransport => ({
  kind: 'nats',
  server: (serviceName) => new SubjectServerNats({ servers: [url], queue: serviceName, ...natsConnectionOptions }),
  client: () => new ClientNats({ servers: [url], ...natsConnectionOptions }),
});
