import { randomUUID } from 'node:crypto';
import { Controller, type DynamicModule, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { defineMessage } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../config/config';
import type { Infrastructure } from '../infrastructure';
import { createInfrastructure } from '../infrastructure.factory';
import { startService } from '../service-bootstrap';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { handle } from './handle';

const available = await infraAvailable('nats');

describe.skipIf(!available)(infraSuiteTitle('startService on NATS', 'nats', available), () => {
  // Unique per run, so that runs sharing a NATS server cannot answer each other.
  const Ping = defineMessage(`start${randomUUID().slice(0, 8)}.qry.ping.v1`, z.object({ n: z.number() }), z.object({ n: z.number() }));

  @Controller()
  class PingHandler {
    @MessagePattern(Ping.subject)
    ping(@Payload() raw: unknown) {
      return handle(Ping, raw, async (req) => ({ n: req.n }));
    }
  }
  @Module({})
  class PingModule {}
  const pingModule = (): DynamicModule => ({ module: PingModule, controllers: [PingHandler] });

  let infra: Infrastructure;

  beforeAll(async () => {
    // A process with no port opened: only the transport and the service client.
    infra = await createInfrastructure(loadConfig({ NATS_URL: infraUrl('nats'), SEED_DEMO: 'false' }), { only: [] });
  });
  afterAll(async () => {
    await infra?.close();
  });

  it('is reachable as soon as startService resolves, start after start', async () => {
    const failures: string[] = [];
    for (let cycle = 0; cycle < 150; cycle++) {
      const service = await startService('start-ping', pingModule(), infra);
      try {
        expect(await infra.services.send(Ping, { n: cycle })).toEqual({ n: cycle });
      } catch (err) {
        failures.push(`cycle ${cycle}: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        await service.close();
      }
    }
    expect(failures).toEqual([]);
  });
});
