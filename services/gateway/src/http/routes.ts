import { type Actor, type AgentInfo, type KeyInfo, type Permission, type SessionInfo, Uuid } from '@palaver/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AdminPrincipal, actorOf } from '../auth/admin-access';
import type { Authenticator } from '../auth/authenticator';
import type { IdempotentRequests } from '../idempotency/idempotent-requests';
import type { ApiDocs, Auth, Method, RouteDoc } from '../openapi/api-docs';
import { parse } from './parse';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the declared credential resolves to. Admin routes are authenticated by their plugin's hook. */
type Credential<A extends Auth> = A extends 'admin'
  ? { principal: AdminPrincipal; actor: Actor }
  : A extends 'user'
    ? { principal: Extract<AdminPrincipal, { me: unknown }>; actor: Actor }
    : A extends 'session'
      ? { session: SessionInfo }
      : A extends 'privateKey' | 'publishableKey' | 'serviceKey'
        ? { key: KeyInfo }
        : A extends 'agent'
          ? { agent: AgentInfo }
          : object;

/** Every admin route declares the permission it asks of a person; other routes declare none. */
type PermissionOf<A extends Auth> = A extends 'admin' ? { permission: Permission } : { permission?: never };

/** The names of a URL's path parameters: `/a/:projectId/b/:keyId` gives `'projectId' | 'keyId'`. */
type PathParamNames<U extends string> = U extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : U extends `${string}:${infer Name}`
    ? Name
    : never;

/** A route's parsed path: its declared schema's output, else each of the URL's parameters as a uuid. */
type ParamsOf<U extends string, P> = P extends z.ZodType
  ? z.output<P>
  : [PathParamNames<U>] extends [never]
    ? undefined
    : { [Name in PathParamNames<U>]: string };

export type RouteInput<A extends Auth, Params, Q, B> = Credential<A> & {
  params: Params;
  query: Out<Q>;
  body: Out<B>;
  request: FastifyRequest;
  reply: FastifyReply;
};

/** The declaration of one route; `params` defaults to the URL's parameters, each a uuid. */
export type RouteSpec<A extends Auth, U extends string, P, Q, B> = Omit<
  RouteDoc,
  'auth' | 'url' | 'params' | 'query' | 'body' | 'permission'
> & {
  auth: A;
  url: U;
  params?: P;
  query?: Q;
  body?: B;
  /** Honours `Idempotency-Key` (default: a POST with a credential; false for a body that is not JSON). */
  idempotent?: boolean;
} & PermissionOf<A>;

export type RouteHandler<A extends Auth, U extends string, P, Q, B> = (input: RouteInput<A, ParamsOf<U, P>, Q, B>) => Promise<unknown>;

/** Declares a route of a scope by its method: the URL, then what the route states beyond the scope's credential and tag. */
type ScopedRoute<A extends Auth> = <
  U extends string,
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  url: U,
  route: Omit<RouteSpec<A, U, P, Q, B>, 'auth' | 'tag' | 'method' | 'url'>,
  handler: RouteHandler<A, U, P, Q, B>,
) => void;

/** Routes declared with a shared credential and tag, as Fastify's `app.get(url, options, handler)`. */
export type RouteScope<A extends Auth> = Record<Lowercase<Method>, ScopedRoute<A>>;

/** One group of the admin API (one tag of its document). */
export type AdminRoutes = RouteScope<'admin'>;

/** The URL's path parameters as uuids, for a route that declares no schema of its own. */
const uuidParamsOf = (url: string): z.ZodObject | undefined => {
  const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return names.length > 0 ? z.object(Object.fromEntries(names.map((name) => [name, Uuid]))) : undefined;
};

/** The one success status other than 200 a route declares (201, 202, 204): the one its handler's result is sent with. */
const declaredSuccessOf = (responses: RouteDoc['responses']): number | undefined => {
  const successes = Object.keys(responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return successes.length === 1 && successes[0] !== 200 ? successes[0] : undefined;
};

/** A handler whose result, unless it answered itself, is sent with the route's declared success status (none for 204). */
const withDeclaredSuccess = <I extends { reply: FastifyReply }>(
  handler: (input: I) => Promise<unknown>,
  status: number | undefined,
): ((input: I) => Promise<unknown>) => {
  if (status === undefined) return handler;
  return async (input) => {
    const result = await handler(input);
    if (input.reply.sent) return result;
    return input.reply.status(status).send(status === 204 ? undefined : result);
  };
};

/** Credentials whose POSTs honour an `Idempotency-Key` unless the route says otherwise. */
const IDEMPOTENT_BY_DEFAULT = new Set<Auth>(['session', 'privateKey', 'serviceKey', 'agent', 'admin', 'user']);

/** Whose keys a credential's idempotency keys are: the visitor, the API key, the agent, the person or the admin token. */
const callerScope = (
  credential: { session?: SessionInfo; key?: KeyInfo; agent?: AgentInfo; principal?: AdminPrincipal; me?: { id: string } },
  auth: Auth,
): string => {
  if (credential.session) return `visitor:${credential.session.projectId}:${credential.session.visitorId}`;
  if (credential.key) return `key:${credential.key.keyId}`;
  if (credential.agent) return `agent:${credential.agent.agentId}`;
  if (credential.principal && credential.principal.kind !== 'admin-token') return `user:${credential.principal.me.id}`;
  if (credential.me) return `user:${credential.me.id}`;
  return auth;
};

/**
 * Declares a route once. Fastify serves it: the declared credential is resolved first (401/403),
 * then path, query and body are parsed with the route's contract schemas (400/422 as in
 * docs/api.md; path parameters without a schema are uuids). The OpenAPI document describes it with
 * the same schemas. A route documenting one success status other than 200 answers its handler's
 * result with it. A POST with a credential honours an `Idempotency-Key` (see IdempotentRequests)
 * unless declared with `idempotent: false`.
 */
export class Routes {
  constructor(
    private readonly app: FastifyInstance,
    private readonly docs: ApiDocs,
    private readonly auth: Authenticator,
    private readonly idempotency: IdempotentRequests,
  ) {}

  add<
    A extends Auth,
    U extends string,
    P extends z.ZodObject | undefined = undefined,
    Q extends z.ZodObject | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
  >(route: RouteSpec<A, U, P, Q, B>, handler: RouteHandler<A, U, P, Q, B>): void {
    if (route.auth === 'admin' && !route.permission) throw new Error(`${route.method} ${route.url} declares no permission`);
    const { idempotent = route.method === 'POST' && IDEMPOTENT_BY_DEFAULT.has(route.auth), params: declaredParams, ...doc } = route;
    const pathSchema = declaredParams ?? uuidParamsOf(route.url);
    this.docs.register({ idempotent, params: pathSchema, ...doc } as RouteDoc);
    const serve = withDeclaredSuccess(handler, declaredSuccessOf(route.responses));
    const idempotency = this.idempotency;
    this.app.route({
      method: route.method,
      url: route.url,
      ...(idempotent ? { onSend: idempotency.onSend } : {}),
      handler: async (request, reply) => {
        const credential = await this.resolve(route.auth, request, reply);
        const params = (pathSchema ? parse(pathSchema, request.params, 'path') : undefined) as ParamsOf<U, P>;
        if (route.auth === 'admin') {
          // Before the body is read: a caller without the right learns nothing from validation.
          const projectId = (params as { projectId?: string } | undefined)?.projectId;
          const { principal } = credential as { principal: AdminPrincipal };
          this.auth.access.authorize(principal, route.permission as Permission, projectId);
          // A deleted project's audit log stays readable by the admin token (docs/accounts.md).
          if (principal.kind === 'admin-token' && projectId !== undefined && route.permission !== 'audit.read') {
            await this.auth.assertProject(projectId);
          }
        }
        // The credential spread last: no keys added after a spread on the hot path (test/support/keys-after-spread.ts).
        const input = {
          params,
          query: (route.query ? parse(route.query, request.query, 'query') : undefined) as Out<Q>,
          body: (route.body ? parse(route.body, request.body, 'body') : undefined) as Out<B>,
          request,
          reply,
          ...credential,
        } as RouteInput<A, ParamsOf<U, P>, Q, B>;
        if (!idempotent || request.headers['idempotency-key'] === undefined) return serve(input);
        if (await idempotency.begin(request, reply, callerScope(credential, route.auth))) return reply;
        try {
          return await serve(input);
        } finally {
          await idempotency.afterHandler(request, reply);
        }
      },
    });
  }

  /** Declarations sharing a credential and a tag (`{ auth: 'admin', tag: 'admin: knowledge' }`). */
  scope<A extends Auth>(shared: { auth: A; tag: string }): RouteScope<A> {
    const declare =
      (method: Method): ScopedRoute<A> =>
      (url, route, handler) =>
        this.add({ auth: shared.auth, tag: shared.tag, method, url, ...route } as never, handler as never);
    return { get: declare('GET'), post: declare('POST'), put: declare('PUT'), patch: declare('PATCH'), delete: declare('DELETE') };
  }

  /** The same declarations on another (encapsulated) Fastify instance. */
  on(app: FastifyInstance): Routes {
    return new Routes(app, this.docs, this.auth, this.idempotency);
  }

  private async resolve(auth: Auth, request: FastifyRequest, reply: FastifyReply): Promise<object> {
    switch (auth) {
      case 'session':
        return { session: await this.auth.session(request) };
      case 'privateKey':
        return { key: await this.auth.privateKey(request) };
      case 'publishableKey':
        return { key: await this.auth.publishableKey(request) };
      case 'serviceKey':
        return { key: await this.auth.serviceKey(request) };
      case 'agent':
        return { agent: await this.auth.agent(request, reply) };
      case 'admin': {
        const principal = this.auth.access.principalOf(request);
        return { principal, actor: actorOf(principal) };
      }
      case 'user': {
        const principal = await this.auth.access.person(request, reply);
        return { principal, actor: actorOf(principal) };
      }
      case 'none':
        return {};
      default: {
        const unknown: never = auth;
        throw new Error(`unknown auth ${String(unknown)}`);
      }
    }
  }
}
