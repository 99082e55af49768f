import { randomUUID } from 'node:crypto';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AppError, defineMessage } from '@palaver/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { handle } from '../transport/handle';
import { ServiceClient } from '../transport/service-client';
import type { ServiceTransport } from '../transport/transport';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every service transport shares, proven with a real Nest microservice: replies,
 * catalogued errors travelling back, SERVICE_UNAVAILABLE when nobody serves a subject, and one
 * answer per request when several instances of a service listen (a queue group).
 */
export function describeServiceTransportContract(adapterName: string, factory: () => ServiceTransport): void {
  describe(`ServiceTransport contract: ${adapterName}`, () => {
    // Unique subjects per run, so that runs sharing a NATS server cannot answer each other.
    const run = randomUUID().slice(0, 8);
    const Echo = defineMessage(
      `contract${run}.qry.echo.v1`,
      z.object({ text: z.string(), fail: z.boolean().optional(), delayMs: z.number().optional() }),
      z.object({ text: z.string(), instance: z.string() }),
    );
    const Broken = defineMessage(`contract${run}.qry.broken.v1`, z.object({}), z.object({}));
    const Nobody = defineMessage(`contract${run}.qry.nobody.v1`, z.object({}), z.object({}));

    let transport: ServiceTransport;
    let apps: INestMicroservice[];
    let clients: ServiceClient[];
    let handled: string[];

    const startInstance = async (instance: string): Promise<void> => {
      @Controller()
      class EchoHandler {
        @MessagePattern(Echo.subject)
        echo(@Payload() raw: unknown) {
          return handle(Echo, raw, async (req) => {
            handled.push(instance);
            if (req.delayMs) await sleep(req.delayMs);
            if (req.fail) {
              throw new AppError('CONVERSATION_NOT_FOUND', `no conversation for ${req.text}`, { conversationId: req.text });
            }
            return { text: req.text, instance };
          });
        }

        /** A handler that throws past `handle`, as a bug would. */
        @MessagePattern(Broken.subject)
        broken(): never {
          throw new Error('bug');
        }
      }
      @Module({ controllers: [EchoHandler] })
      class EchoModule {}
      const app = await NestFactory.createMicroservice(EchoModule, {
        strategy: transport.server('contract-echo'),
        logger: false,
      });
      await app.listen();
      apps.push(app);
    };

    const client = (timeoutMs?: number): ServiceClient => {
      const c = new ServiceClient(transport.client(), timeoutMs);
      clients.push(c);
      return c;
    };

    beforeEach(() => {
      transport = factory();
      apps = [];
      clients = [];
      handled = [];
    });

    afterEach(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(apps.map((a) => a.close()));
    });

    it('carries a request to the handler and its reply back', async () => {
      await startInstance('a');
      const reply = await client().send(Echo, { text: 'hello' });
      expect(reply).toEqual({ text: 'hello', instance: 'a' });
    });

    it('brings an AppError back with its code, message and details', async () => {
      await startInstance('a');
      const failure = await client()
        .send(Echo, { text: 'c-42', fail: true })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({
        code: 'CONVERSATION_NOT_FOUND',
        message: 'no conversation for c-42',
        details: { conversationId: 'c-42' },
      });
    });

    it('answers SERVICE_UNAVAILABLE at once for a subject nobody serves', async () => {
      await startInstance('a');
      const started = Date.now();
      const failure = await client(10_000)
        .send(Nobody, {})
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { service: `contract${run}` } });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('reports a handler that throws past handle() as SERVICE_UNAVAILABLE, and goes on serving', async () => {
      await startInstance('a');
      const c = client();
      const failure = await c.send(Broken, {}).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { service: `contract${run}` } });
      expect(await c.send(Echo, { text: 'after' })).toEqual({ text: 'after', instance: 'a' });
    });

    it('answers SERVICE_UNAVAILABLE when the service does not answer within the timeout, and goes on serving', async () => {
      await startInstance('a');
      const c = client(100);
      const started = Date.now();
      const failure = await c.send(Echo, { text: 'slow', delayMs: 1_000 }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('timed out') });
      expect(Date.now() - started).toBeLessThan(900);
      expect(await c.send(Echo, { text: 'quick' })).toEqual({ text: 'quick', instance: 'a' });
    });

    it('has each request answered by exactly one instance of a service', async () => {
      await startInstance('a');
      await startInstance('b');
      const c = client();
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => c.send(Echo, { text: `m${i}` })));
      expect(replies.map((r) => r.text)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
      expect(new Set(handled.slice(0, 20))).toEqual(new Set(['a', 'b']));
      // Each instance takes its requests in order: once both have answered one sent after these, a
      // second copy of any of these would have been handled by then.
      const answeredAfter = new Set<string>();
      let sentAfter = 0;
      await vi.waitFor(
        async () => {
          sentAfter += 1;
          answeredAfter.add((await c.send(Echo, { text: 'after' })).instance);
          expect([...answeredAfter].sort()).toEqual(['a', 'b']);
        },
        { timeout: 5_000, interval: 1 },
      );
      expect(handled).toHaveLength(20 + sentAfter);
    });
  });
}
