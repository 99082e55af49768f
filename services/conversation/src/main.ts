import 'reflect-metadata';
import { createInfrastructure, loadConfig, logger } from '@palaver/platform';
import { startConversationService } from './index';

const infra = await createInfrastructure(loadConfig(), { only: ['documents', 'eventStore', 'eventStream', 'jobs'] });
const service = await startConversationService(infra);
logger.info('conversation service started');

const stop = async (): Promise<void> => {
  await service.close();
  await infra.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
