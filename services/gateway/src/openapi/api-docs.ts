import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorBody, type Permission } from '@palaver/contracts';
import { z } from 'zod';

/** `user`: a signed-in person (session cookie or personal API token); `admin`: the admin token or a person with the route's permission. */
export type Auth = 'none' | 'publishableKey' | 'session' | 'privateKey' | 'admin' | 'agent' | 'serviceKey' | 'user';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseDoc {
  description: string;
  /** JSON body schema; omit for an empty body. */
  schema?: z.ZodType;
  /** Another media type than JSON (`text/event-stream`, `text/plain`). */
  mediaType?: string;
}

export interface RouteDoc {
  method: Method;
  /** Fastify syntax: `/v2/conversations/:conversationId`. */
  url: string;
  summary: string;
  tag: string;
  auth: Auth;
  /** What an admin route asks of a person (docs/accounts.md); required on every `admin` route. */
  permission?: Permission;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, ResponseDoc>;
  /** Honours the `Idempotency-Key` header (docs/api.md, "Idempotent requests"). */
  idempotent?: boolean;
}

const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('Makes a retry safe: a repeat within 24 hours gets the first answer again (header `idempotent-replayed: true`)'),
});

const SECURITY: Record<Auth, Array<Record<string, string[]>>> = {
  none: [],
  publishableKey: [{ publishableKey: [] }],
  session: [{ sessionToken: [] }],
  privateKey: [{ privateKey: [] }],
  admin: [{ adminToken: [] }, { sessionCookie: [] }, { apiToken: [] }],
  agent: [{ agentToken: [] }, { sessionCookie: [] }],
  user: [{ apiToken: [] }, { sessionCookie: [] }],
  serviceKey: [{ serviceKey: [] }],
};

/** The OpenAPI 3.1 document, built from the very schemas the routes parse with. */
export class ApiDocs {
  private readonly registry = new OpenAPIRegistry();
  private readonly routes: RouteDoc[] = [];

  constructor() {
    this.registry.registerComponent('securitySchemes', 'publishableKey', { type: 'apiKey', in: 'query', name: 'apiKey' });
    this.registry.registerComponent('securitySchemes', 'serviceKey', { type: 'apiKey', in: 'header', name: 'x-service-key' });
    this.registry.registerComponent('securitySchemes', 'sessionCookie', { type: 'apiKey', in: 'cookie', name: 'palaver_session' });
    for (const name of ['sessionToken', 'privateKey', 'adminToken', 'agentToken', 'apiToken']) {
      this.registry.registerComponent('securitySchemes', name, { type: 'http', scheme: 'bearer' });
    }
  }

  register(route: RouteDoc): void {
    this.routes.push(route);
    const responses = Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.schema || response.mediaType
            ? { content: { [response.mediaType ?? 'application/json']: { schema: response.schema ?? { type: 'string' } } } }
            : {}),
        },
      ]),
    );
    this.registry.registerPath({
      method: route.method.toLowerCase() as 'get',
      path: route.url.replace(/:(\w+)/g, '{$1}'),
      summary: route.summary,
      tags: [route.tag],
      security: SECURITY[route.auth],
      ...(route.permission ? { 'x-permission': route.permission } : {}),
      request: {
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { query: route.query } : {}),
        ...(route.idempotent ? { headers: IdempotencyHeaders } : {}),
        ...(route.body ? { body: { content: { 'application/json': { schema: route.body } } } } : {}),
      },
      responses: {
        ...responses,
        default: { description: 'Error (see docs/api.md)', content: { 'application/json': { schema: ErrorBody } } },
      },
    });
  }

  /** Every documented route as `METHOD url`. */
  list(): string[] {
    return this.routes.map((r) => `${r.method} ${r.url}`);
  }

  /** The admin API's routes with their declared permission (undefined: none declared). */
  adminRoutes(): Array<{ method: string; url: string; permission: Permission | undefined }> {
    return this.routes.filter((r) => r.auth === 'admin').map((r) => ({ method: r.method, url: r.url, permission: r.permission }));
  }

  document(): object {
    return new OpenApiGeneratorV31(this.registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'Palaver API',
        version: '2',
        description: 'The v2 surface for widgets and apps, and the admin API (/admin/v1) for the dashboard.',
      },
    });
  }
}
