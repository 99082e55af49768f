import type { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NatsConnection } from 'nats';
import type { Infrastructure } from './infrastructure';

export interface RunningService {
  readonly name: string;
  close(): Promise<void>;
}

/**
 * Starts one service's Nest microservice on the configured transport; the service answers
 * requests once this resolves.
 */
export const startService = async (name: string, module: DynamicModule, infra: Infrastructure): Promise<RunningService> => {
  const app: INestMicroservice = await NestFactory.createMicroservice(module, {
    strategy: infra.transport.server(name),
    logger: ['error', 'warn'],
  });
  await app.listen();
  // ServerNats.listen only queues its SUBs: without this round trip to the server, a request
  // sent right away can find no responders.
  if (infra.transport.kind === 'nats') await app.unwrap<NatsConnection>().flush();
  return { name, close: () => app.close() };
};
