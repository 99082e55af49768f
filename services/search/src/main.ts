import 'reflect-metadata';
import { createInfrastructure, loadConfig, logger } from '@palaver/platform';
import { startSearchService } from './index';

const config = loadConfig();
const infra = await createInfrastructure(config, { only: ['documents', 'vectors', 'embedder'] });
const service = await startSearchService(infra);
logger.info({ transport: infra.transport.kind, embedder: infra.embedder.name }, 'search service started');

const shutdown = async (signal: string): Promise<void> => {
  logger.info({ signal }, 'search service stopping');
  await service.close();
  await infra.close();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
