import 'reflect-metadata';
import { createInfrastructure, loadConfig, logger } from '@palaver/platform';
import { resolveAdminToken } from './auth/admin-token.store';
import { buildGateway } from './gateway.app';

/** The gateway alone (distributed mode): it needs only the transport, pub/sub and KV ports. */
const config = loadConfig();
const infra = await createInfrastructure(config, { only: ['pubsub', 'kv'] });
const { token } = await resolveAdminToken(config.ADMIN_TOKEN, config.DATA_DIR);
const app = await buildGateway({ ...infra, adminToken: token });
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'gateway listening');

const shutdown = async () => {
  await app.close();
  await infra.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
