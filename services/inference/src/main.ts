import 'reflect-metadata';
import { createInfrastructure, loadConfig, logger } from '@palaver/platform';
import { startInferenceService } from './index';

const config = loadConfig();
// This process opens only the ports inference uses.
const infra = await createInfrastructure(config, { only: ['jobs', 'pubsub', 'chatModel'] });
const service = await startInferenceService(infra);
logger.info({ transport: infra.transport.kind, chatModel: infra.chatModel.name }, 'inference service started');

const shutdown = async (signal: string): Promise<void> => {
  logger.info({ signal }, 'inference service stopping');
  await service.close();
  await infra.close();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
