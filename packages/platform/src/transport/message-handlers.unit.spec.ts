import { type INestMicroservice, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppError, defineMessage } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { registerDependency } from '../health/dependencies';
import { InProcessBus } from './in-process.bus';
import { InProcessServer } from './in-process.transport';
import { answerHealth, messageHandlers } from './message-handlers';

const Greet = defineMessage('handlers-spec.qry.greet.v1', z.object({ name: z.string().min(1) }), z.object({ greeting: z.string() }));
const Fail = defineMessage('handlers-spec.cmd.fail.v1', z.object({ how: z.enum(['catalogued', 'bug']) }), z.object({}));
const Health = defineMessage('handlers-spec.qry.health.v1', z.object({}), z.object({ ok: z.literal(true) }));

@Injectable()
class Greeter {
  greet(name: string): Promise<{ greeting: string }> {
    return Promise.resolve({ greeting: `hello ${name}` });
  }
}

@Injectable()
class Breaker {
  fail(how: 'catalogued' | 'bug'): Promise<Record<string, never>> {
    if (how === 'catalogued') throw new AppError('CONVERSATION_NOT_FOUND', 'no conversation c1', { conversationId: 'c1' });
    throw new Error('bug');
  }
}

const SpecHandler = messageHandlers('SpecHandler', { greeter: Greeter, breaker: Breaker }, (on) => [
  on(Greet, ({ greeter }, req) => {
    expectTypeOf(req).toEqualTypeOf<{ name: string }>();
    expectTypeOf(greeter).toEqualTypeOf<Greeter>();
    return greeter.greet(req.name);
  }),
  on(Fail, ({ breaker }, req) => breaker.fail(req.how)),
  on(Health, answerHealth),
]);

describe('messageHandlers', () => {
  const bus = new InProcessBus();
  let app: INestMicroservice;

  beforeAll(async () => {
    @Module({ controllers: [SpecHandler], providers: [Greeter, Breaker] })
    class SpecModule {}
    app = await NestFactory.createMicroservice(SpecModule, { strategy: new InProcessServer(bus), logger: false });
    await app.listen();
  });

  afterAll(() => app.close());

  it('answers each message of the table under its subject, with the injected dependencies', async () => {
    expect(await bus.request(Greet.subject, { name: 'Ada' })).toEqual({ ok: true, data: { greeting: 'hello Ada' } });
  });

  it('answers a request its schema rejects with a VALIDATION_ERROR naming the field', async () => {
    expect(await bus.request(Greet.subject, { name: '' })).toEqual({
      ok: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(`invalid ${Greet.subject} request`),
        details: { field: 'name', reason: expect.any(String) },
      },
    });
  });

  it('sends a catalogued error back as data', async () => {
    expect(await bus.request(Fail.subject, { how: 'catalogued' })).toEqual({
      ok: false,
      error: { code: 'CONVERSATION_NOT_FOUND', message: 'no conversation c1', details: { conversationId: 'c1' } },
    });
  });

  it('answers any other error as INTERNAL_SERVER_ERROR, without letting it escape', async () => {
    expect(await bus.request(Fail.subject, { how: 'bug' })).toEqual({
      ok: false,
      error: { code: 'INTERNAL_SERVER_ERROR', message: 'internal error' },
    });
  });

  it('answers the health message ok, and SERVICE_UNAVAILABLE while a dependency is down', async () => {
    expect(await bus.request(Health.subject, {})).toEqual({ ok: true, data: { ok: true } });
    const unregister = registerDependency('spec-connection', () => false);
    try {
      expect(await bus.request(Health.subject, {})).toMatchObject({ ok: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    } finally {
      unregister();
    }
  });

  it('types each answer by its message: a wrong request field or response does not compile', () => {
    // @ts-expect-error the request of Greet has no `nickname`
    messageHandlers('WrongRequest', { greeter: Greeter }, (on) => [on(Greet, ({ greeter }, req) => greeter.greet(req.nickname))]);
    // @ts-expect-error the response of Greet is `{ greeting }`
    messageHandlers('WrongResponse', {}, (on) => [on(Greet, async () => ({ salutation: 'hi' }))]);
    expect(() => messageHandlers('Twice', {}, (on) => [on(Health, answerHealth), on(Health, answerHealth)])).toThrow(
      'Twice answers handlers-spec.qry.health.v1 twice',
    );
  });
});
