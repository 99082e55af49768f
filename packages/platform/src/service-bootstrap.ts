import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestMicroservice } from '@nestjs/common';
import type { Infrastructure } from './infrastructure';

export interface RunningService {
  readonly name: string;
  close(): Promise<void>;
}

/** Starts one service's Nest microservice on the configured transport. */
export const startService = async (name: string, module: DynamicModule, infra: Infrastructure): Promise<RunningService> => {
  const app: INestMicroservice = await NestFactory.createMicroservice(module, {
    strategy: infra.transport.server(name),
    logger: ['error', 'warn'],
  });
  await app.listen();
  return { name, close: () => app.close() };
};
