import { buildGateway, resolveAdminToken } from '@palaver/gateway';
import { type Config, createInfrastructure, type Infrastructure, type RunningService } from '@palaver/platform';
import type { FastifyInstance } from 'fastify';
import { type DemoCredentials, seedDemo } from './demo.seed';
import { startAllServices } from './start-all-services';

export interface EmbeddedApp {
  url: string;
  adminToken: string;
  adminTokenGenerated: boolean;
  demo: DemoCredentials | null;
  infra: Infrastructure;
  gateway: FastifyInstance;
  close(): Promise<void>;
}

/** The whole product in one process: every service, the gateway, the demo project. */
export const startEmbeddedApp = async (config: Config, infra?: Infrastructure): Promise<EmbeddedApp> => {
  const ports = infra ?? (await createInfrastructure(config));
  const services: RunningService[] = await startAllServices(ports);
  const admin = await resolveAdminToken(config.ADMIN_TOKEN, config.DATA_DIR);
  const demo = config.SEED_DEMO === 'true' ? await seedDemo(ports.services, config.DATA_DIR) : null;
  const gateway = await buildGateway({ ...ports, adminToken: admin.token, demo: demo && { publishableKey: demo.publishableKey } });
  await gateway.listen({ port: config.PORT, host: config.HOST });
  const address = gateway.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return {
    url: `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`,
    adminToken: admin.token,
    adminTokenGenerated: admin.generated,
    demo,
    infra: ports,
    gateway,
    async close() {
      await gateway.close();
      for (const service of services.reverse()) await service.close();
      await ports.close();
    },
  };
};
