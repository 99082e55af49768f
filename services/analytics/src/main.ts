import 'reflect-metadata';
import { createInfrastructure, loadConfig, logger } from '@palaver/platform';
import { startAnalyticsService } from './index';

const config = loadConfig();
const infra = await createInfrastructure(config, { only: ['documents', 'eventStream'] });
const service = await startAnalyticsService(infra);
logger.info('analytics service started');

let stopping = false;
const stop = async (signal: string): Promise<void> => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'analytics service stopping');
  await service.close();
  await infra.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
