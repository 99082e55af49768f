import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { defineMessage } from '@palaver/contracts';
import type { NatsConnection } from 'nats';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { handle } from './handle';
import { SubjectServerNats } from './nats-server';
import { ServiceClient } from './service-client';
import { natsTransport } from './transport';

const available = await infraAvailable('nats');

describe.skipIf(!available)(infraSuiteTitle('SubjectServerNats', 'nats', available), () => {
  const run = randomUUID().slice(0, 8);
  const Echo = defineMessage(`natsserver${run}.qry.echo.v1`, z.object({ text: z.string() }), z.object({ text: z.string() }));
  const Broken = defineMessage(`natsserver${run}.qry.broken.v1`, z.object({}), z.object({}));
  const Slow = defineMessage(`natsserver${run}.qry.slow.v1`, z.object({ n: z.number() }), z.object({ n: z.number() }));

  @Controller()
  class Handlers {
    /** The requests for Slow this instance is answering now. */
    inFlight = 0;

    @MessagePattern(Echo.subject)
    echo(@Payload() raw: unknown) {
      return handle(Echo, raw, async ({ text }) => ({ text }));
    }

    @MessagePattern(Broken.subject)
    broken(): never {
      throw new Error('bug');
    }

    @MessagePattern(Slow.subject)
    slow(@Payload() raw: unknown) {
      return handle(Slow, raw, async ({ n }) => {
        this.inFlight++;
        // A handler that takes a while, so an instance closing has requests in hand.
        await new Promise((resolve) => setTimeout(resolve, 20));
        this.inFlight--;
        return { n };
      });
    }
  }
  @Module({ controllers: [Handlers] })
  class HandlersModule {}

  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(closing.splice(0).map((close) => close()));
  });

  it("answers a handler's value at once, and an Observable (a thrown exception) through Nest's own path", async () => {
    const transport = natsTransport(infraUrl('nats'));
    const app = await NestFactory.createMicroservice(HandlersModule, { strategy: transport.server(`natsserver${run}`), logger: false });
    await app.listen();
    const client = new ServiceClient(transport.client(), 5_000);
    closing.push(
      () => client.close(),
      () => app.close(),
    );
    const send = vi.spyOn(SubjectServerNats.prototype, 'send');

    expect(await Promise.all([client.send(Echo, { text: 'a' }), client.send(Echo, { text: 'b' })])).toEqual([{ text: 'a' }, { text: 'b' }]);
    expect(send).not.toHaveBeenCalled();

    await expect(client.send(Broken, {})).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('closing one instance of a service loses no request: it answers those it took, the others the rest', async () => {
    const transport = natsTransport(infraUrl('nats'));
    const start = async () => {
      const app = await NestFactory.createMicroservice(HandlersModule, { strategy: transport.server(`natsserver${run}`), logger: false });
      await app.listen();
      await app.unwrap<NatsConnection>().flush();
      return app;
    };
    const [leaving, staying] = [await start(), await start()];
    const client = new ServiceClient(transport.client(), 3_000);
    closing.push(
      () => client.close(),
      () => staying.close(),
    );

    // Requests keep coming, each taking 20 ms to answer, while one of the two instances closes.
    const answers: Array<Promise<unknown>> = [];
    const sending = (async () => {
      for (let n = 0; n < 150; n++) {
        answers.push(
          client.send(Slow, { n }).then(
            (r) => r.n,
            (err: unknown) => `request ${n}: ${(err as Error).message}`,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await vi.waitFor(() => expect(leaving.get(Handlers).inFlight).toBeGreaterThan(0));
    await leaving.close();
    await sending;
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 150 }, (_, n) => n));
  });
});
