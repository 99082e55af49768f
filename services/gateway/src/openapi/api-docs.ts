import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorBody } from '@palaver/contracts';
import { z } from 'zod';

export type Auth = 'none' | 'publishableKey' | 'session' | 'privateKey' | 'admin' | 'agent' | 'serviceKey';
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
  admin: [{ adminToken: [] }],
  agent: [{ agentToken: [] }],
  serviceKey: [{ serviceKey: [] }],
};

/** The OpenAPI 3.1 document, built from the very schemas the routes parse with. */
export class ApiDocs {
  private readonly registry = new OpenAPIRegistry();
  private readonly routes: RouteDoc[] = [];

  constructor() {
    this.registry.registerComponent('securitySchemes', 'publishableKey', { type: 'apiKey', in: 'query', name: 'apiKey' });
    this.registry.registerComponent('securitySchemes', 'serviceKey', { type: 'apiKey', in: 'header', name: 'x-service-key' });
    for (const name of ['sessionToken', 'privateKey', 'adminToken', 'agentToken']) {
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
