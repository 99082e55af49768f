import type { CustomTransportStrategy } from '@nestjs/microservices';
import { InProcessBus } from './in-process.bus';
import { InProcessClient, InProcessServer } from './in-process.transport';
import { natsConnectionOptions } from './nats-options';
import { NatsServiceRequester } from './nats-requester';
import { SubjectServerNats } from './nats-server';
import type { ServiceRequester } from './service-requester';
import { SharedNatsConnection } from './shared-nats-connection';

/** Where services answer requests: one in-process bus, or NATS with one queue group per service. */
export interface ServiceTransport {
  readonly kind: 'in-process' | 'nats';
  server(serviceName: string): CustomTransportStrategy;
  client(): ServiceRequester;
}

export const inProcessTransport = (bus = new InProcessBus()): ServiceTransport => ({
  kind: 'in-process',
  server: () => new InProcessServer(bus),
  client: () => new InProcessClient(bus),
});

/** Servers and clients share `connection` (one per process, see SharedNatsConnection). */
export const natsTransport = (connection: SharedNatsConnection | string): ServiceTransport => {
  const shared = typeof connection === 'string' ? new SharedNatsConnection(connection) : connection;
  return {
    kind: 'nats',
    server: (serviceName) => new SubjectServerNats({ servers: shared.servers, queue: serviceName, ...natsConnectionOptions }, shared),
    client: () => new NatsServiceRequester(shared),
  };
};
