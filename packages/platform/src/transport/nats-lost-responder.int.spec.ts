import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AppError, defineMessage } from '@palaver/contracts';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type PrivateServer, privateServersAvailable, startPrivateNats } from '../testing/private-servers';
import { handle } from './handle';
import { ServiceClient } from './service-client';
import { SharedNatsConnection } from './shared-nats-connection';
import { natsTransport } from './transport';
import { RESPONDER_SILENCE_MS } from './working-heartbeat';

const available = privateServersAvailable();
const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe.skipIf(!available)(
  `service requests whose responder or connection is lost, on a NATS of the test's own${available ? '' : ' (nats-server not installed: skipped)'}`,
  () => {
    const run = randomUUID().slice(0, 8);
    const Slow = defineMessage(`lost${run}.qry.slow.v1`, z.object({ ms: z.number() }), z.object({ ms: z.number() }));
    let nats: PrivateServer;
    let shared: SharedNatsConnection;
    let client: ServiceClient;
    /** A raw responder of the test's own (it can take a request and never answer). */
    let raw: NatsConnection;

    @Controller()
    class Handlers {
      @MessagePattern(Slow.subject)
      slow(@Payload() payload: unknown) {
        return handle(Slow, payload, async ({ ms }) => {
          await new Promise((resolve) => setTimeout(resolve, ms));
          return { ms };
        });
      }
    }
    @Module({ controllers: [Handlers] })
    class HandlersModule {}
    let closeApp: () => Promise<void>;

    beforeAll(async () => {
      nats = await startPrivateNats();
      shared = new SharedNatsConnection(nats.url);
      const transport = natsTransport(shared);
      const app = await NestFactory.createMicroservice(HandlersModule, { strategy: transport.server(`lost${run}`), logger: false });
      await app.listen();
      closeApp = () => app.close();
      client = new ServiceClient(transport.client(), 30_000);
      raw = await connect({ servers: nats.url });
    }, 30_000);
    afterAll(async () => {
      await client?.close();
      await closeApp?.();
      await raw?.close();
      await nats?.dispose();
    });

    it('a handler that takes longer than the silence limit is answered: its instance says it is working', async () => {
      const ms = RESPONDER_SILENCE_MS + 2_000;
      expect(await client.send(Slow, { ms })).toEqual({ ms });
    }, 20_000);

    it('a request taken by an instance that then says nothing fails fast (a command) or is sent again (a query), not after its 30 s timeout', async () => {
      const Command = defineMessage(`lost${run}.cmd.do.v1`, z.object({}), z.object({ n: z.number() }));
      const Query = defineMessage(`lost${run}.qry.get.v1`, z.object({}), z.object({ n: z.number() }));
      // The first request of each subject is taken and never answered (as by a process killed with
      // it); the next one is answered, as another instance would.
      const seen = new Map<string, number>();
      for (const subject of [Command.subject, Query.subject]) {
        raw.subscribe(subject, {
          queue: 'q',
          callback: (_err, msg) => {
            const n = (seen.get(subject) ?? 0) + 1;
            seen.set(subject, n);
            if (n === 1) return;
            const { id } = JSON.parse(new TextDecoder().decode(msg.data)) as { id: string };
            msg.respond(utf8({ response: { ok: true, data: { n } }, isDisposed: true, id }));
          },
        });
      }
      await raw.flush();

      let started = Date.now();
      const failed = await client.send(Command, {}).catch((err: unknown) => err);
      const commandMs = Date.now() - started;
      expect(failed).toBeInstanceOf(AppError);
      expect(failed).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfter: 1 } });
      expect(commandMs).toBeGreaterThanOrEqual(RESPONDER_SILENCE_MS - 100);
      expect(commandMs).toBeLessThan(RESPONDER_SILENCE_MS + 3_000);
      expect(seen.get(Command.subject)).toBe(1); // never sent again

      started = Date.now();
      expect(await client.send(Query, {})).toEqual({ n: 2 });
      expect(Date.now() - started).toBeLessThan(RESPONDER_SILENCE_MS + 3_000);
    }, 30_000);

    it('NATS down: a request fails at once with SERVICE_UNAVAILABLE, as does one waiting for its answer; requests go through again once it is back', async () => {
      expect(await client.send(Slow, { ms: 0 })).toEqual({ ms: 0 });
      const waiting = client.send(Slow, { ms: 3_000 }).catch((err: unknown) => err);
      await nats.stop();
      let started = Date.now();
      expect(await waiting).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(1_500);

      started = Date.now();
      const refused = await client.send(Slow, { ms: 0 }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfter: 1, service: 'nats' } });
      expect(Date.now() - started).toBeLessThan(500);

      await nats.start();
      await expect
        .poll(() => client.send(Slow, { ms: 0 }).catch((err: unknown) => err), { timeout: 15_000, interval: 250 })
        .toEqual({ ms: 0 });
    }, 40_000);
  },
);
