/**
 * The bus floor of a distributed `POST /v2/identity/init`, for `pnpm bench:api`: bare Fastify
 * answering the init shape after the crossings the product's init makes (docs/architecture.md,
 * "Hot-path techniques"): a request over NATS to a service (through the product's own transport and
 * Nest server), which writes a session to Redis with a TTL (the product's key-value adapter) and
 * answers. No CORS, no validation, no key lookup, no visitor: what it answers per second is a
 * ceiling the product's distributed init cannot pass on this machine.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { defineMessage } from '@palaver/contracts';
import { createInfrastructure, handle, loadConfig, startService } from '@palaver/platform';
import Fastify from 'fastify';
import { z } from 'zod';

const shape = JSON.parse(process.env.BENCH_SHAPES ?? '{}').init as { sessionToken: string; visitor: unknown };
const Init = defineMessage('floor.cmd.init.v1', z.object({ saVid: z.string() }), z.object({ sessionToken: z.string() }));

const infra = await createInfrastructure(loadConfig(), { only: ['kv'] });

@Controller()
class IdentityFloor {
  @MessagePattern(Init.subject)
  init(@Payload() raw: unknown) {
    return handle(Init, raw, async ({ saVid }) => {
      const sessionToken = randomUUID();
      await infra.kv.set(`floor:session:${sessionToken}`, JSON.stringify({ saVid }), 3_600);
      return { sessionToken };
    });
  }
}

@Module({ controllers: [IdentityFloor] })
class IdentityFloorModule {}

const service = await startService('floor-identity', { module: IdentityFloorModule }, infra);
const app = Fastify({ logger: false });
app.post('/v2/identity/init', async (request) => {
  const { saVid } = request.body as { saVid: string };
  const { sessionToken } = await infra.services.send(Init, { saVid });
  return { ...shape, sessionToken };
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send!({ cmd: 'ready', url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'close')
    void (async () => {
      await app.close();
      await service.close();
      await infra.close();
      process.exit(0);
    })();
});
