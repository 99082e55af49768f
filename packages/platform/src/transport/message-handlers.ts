import { Controller, Inject, type Type } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { ReplyEnvelope, ServiceMessage } from '@palaver/contracts';
import type { z } from 'zod';
import { assertDependenciesUp } from '../health/dependencies';
import { handle } from './handle';

/** A class Nest can inject by itself as the token (a service, a repository, an abstract port). */
export type InjectionClass = abstract new (...args: never[]) => unknown;

/** The instances the answers are given, under the names the dependencies were declared with. */
export type Injected<D extends Record<string, InjectionClass>> = { readonly [K in keyof D]: InstanceType<D[K]> };

/** How one message is answered: from the injected dependencies and the parsed request. */
export type Answer<M extends ServiceMessage, Deps> = (deps: Deps, request: z.output<M['request']>) => Promise<z.input<M['response']>>;

/** One message a handler class answers; its types are checked where it is declared (see `on`). */
export interface MessageRoute<Deps> {
  readonly subject: string;
  readonly reply: (deps: Deps, raw: unknown) => Promise<ReplyEnvelope>;
}

/** Declares the answer to one message; the request and the response are the message's own types. */
export type On<Deps> = <M extends ServiceMessage>(message: M, answer: Answer<M, Deps>) => MessageRoute<Deps>;

const on = <M extends ServiceMessage, Deps>(message: M, answer: Answer<M, Deps>): MessageRoute<Deps> => ({
  subject: message.subject,
  reply: (deps, raw) => handle(message, raw, (request) => answer(deps, request)),
});

/**
 * A Nest controller answering messages, declared as a table: the dependencies it injects, by name,
 * and one line a message saying which use case answers it. Each message becomes a method (named
 * after its subject) under `@MessagePattern(subject)` with its `@Payload()`, whose body is `handle`
 * (parse, span, metrics, reply envelope), so both transports discover it as a written one.
 */
export const messageHandlers = <D extends Record<string, InjectionClass>>(
  name: string,
  dependencies: D,
  routes: (on: On<Injected<D>>) => MessageRoute<Injected<D>>[],
): Type<unknown> => {
  const names = Object.keys(dependencies);

  class Handlers {
    readonly deps: Injected<D>;

    constructor(...instances: unknown[]) {
      this.deps = Object.fromEntries(names.map((key, index) => [key, instances[index]])) as Injected<D>;
    }
  }
  Object.defineProperty(Handlers, 'name', { value: name });
  names.forEach((key, index) => {
    Inject(dependencies[key])(Handlers, undefined, index);
  });

  for (const route of routes(on)) {
    if (Object.hasOwn(Handlers.prototype, route.subject)) throw new Error(`${name} answers ${route.subject} twice`);
    const descriptor: PropertyDescriptor = {
      value(this: Handlers, raw: unknown) {
        return route.reply(this.deps, raw);
      },
      writable: true,
      configurable: true,
    };
    Object.defineProperty(Handlers.prototype, route.subject, descriptor);
    MessagePattern(route.subject)(Handlers.prototype, route.subject, descriptor);
    Payload()(Handlers.prototype, route.subject, 0);
  }
  Controller()(Handlers);
  return Handlers;
};

/** The answer to a service's health message: ok while every connection the process needs is up. */
export const answerHealth = async (): Promise<{ ok: true }> => {
  assertDependenciesUp();
  return { ok: true };
};
