import 'reflect-metadata';
import { announceReady, createInfrastructure, exitOnFatalErrors, loadConfig, logger, startTracing, stopOnSignals } from '@palaver/platform';
import { resolveAdminToken } from './auth/admin-token.store';
import { buildGateway } from './gateway.app';

/** The gateway alone (distributed mode): it needs only the transport, pub/sub, KV and reply log ports. */
exitOnFatalErrors('gateway');
const config = loadConfig();
const tracing = await startTracing('gateway');
const infra = await createInfrastructure(config, { only: ['pubsub', 'kv', 'replyLog'] });
const { token } = await resolveAdminToken(config.ADMIN_TOKEN, config.DATA_DIR);
const app = await buildGateway({ ...infra, adminToken: token });
const url = await app.listen({ port: config.PORT, host: config.HOST });
stopOnSignals('gateway', async () => {
  await app.close();
  await infra.close();
  await tracing?.shutdown();
});
logger.info({ url }, 'gateway listening');
announceReady({ service: 'gateway', url });
