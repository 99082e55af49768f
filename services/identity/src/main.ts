import 'reflect-metadata';
import { createInfrastructure, loadConfig, logger } from '@palaver/platform';
import { startIdentityService } from './index';

const config = loadConfig();
const infra = await createInfrastructure(config, { only: ['documents', 'kv', 'pubsub'] });
const service = await startIdentityService(infra);
logger.info({ transport: infra.transport.kind }, 'identity service started');

const shutdown = async (signal: string): Promise<void> => {
  logger.info({ signal }, 'identity service stopping');
  await service.close();
  await infra.close();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
