import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, startE2eApp, useE2eApp } from './support/e2e-app';

describe('GET /openapi.json', () => {
  let e2e: E2eApp;
  let document: any;
  beforeAll(async () => {
    e2e = await startE2eApp();
    document = (await http(`${e2e.url}/openapi.json`)).body;
  });
  afterAll(() => e2e.stop());

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes every v2 endpoint of the spec with its auth and schemas', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const operation of [
      'POST /v2/identity/init',
      'GET /v2/identity/me',
      'GET /v2/projects/current',
      'GET /v2/search',
      'GET /v2/projects/{projectId}/qnas',
      'GET /v2/projects/{projectId}/qnas/{qnaId}',
      'POST /v2/conversations',
      'GET /v2/conversations',
      'GET /v2/conversations/{conversationId}',
      'GET /v2/conversations/{conversationId}/messages',
      'POST /v2/conversations/{conversationId}/messages',
      'POST /v2/conversations/{conversationId}/close',
      'POST /v2/messages/{messageId}/feedback',
      'POST /v2/chat/completions',
    ]) {
      expect(operations).toContain(operation);
    }
    const send = document.paths['/v2/conversations/{conversationId}/messages'].post;
    expect(send.security).toEqual([{ sessionToken: [] }]);
    expect(send.requestBody.content['application/json'].schema.properties.content).toMatchObject({ minLength: 1, maxLength: 10000 });
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(['200', '202', 'default']));
    expect(document.paths['/v2/chat/completions'].post.security).toEqual([{ privateKey: [] }]);
  });

  it('bounds the length of every string a client can send (body, query, path)', () => {
    // Formats whose pattern bounds the length by itself.
    const BOUNDED_FORMATS = new Set(['uuid', 'date-time']);
    const unbounded: string[] = [];
    const resolve = (schema: any): any => (schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema);
    const walk = (raw: any, where: string): void => {
      const schema = resolve(raw);
      if (!schema || typeof schema !== 'object') return;
      const types = [schema.type].flat();
      if (
        types.includes('string') &&
        schema.maxLength === undefined &&
        !schema.enum &&
        schema.const === undefined &&
        !BOUNDED_FORMATS.has(schema.format)
      ) {
        unbounded.push(where);
      }
      for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, `${where}.${key}`);
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const list of ['anyOf', 'oneOf', 'allOf']) for (const [i, sub] of (schema[list] ?? []).entries()) walk(sub, `${where}|${i}`);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${where}.*`);
    };
    for (const [path, item] of Object.entries(document.paths) as [string, any][]) {
      for (const [method, operation] of Object.entries(item) as [string, any][]) {
        const name = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? []) walk(parameter.schema, `${name} ${parameter.in}:${parameter.name}`);
        walk(operation.requestBody?.content?.['application/json']?.schema, `${name} body`);
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('documents only routes the server has', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [path, item] of Object.entries(document.paths) as [string, any][]) {
      for (const method of Object.keys(item)) {
        const url = `${e2e.url}${path.replace(/\{\w+\}/g, id)}`;
        const response = await http(url, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          rawBody: method === 'get' ? undefined : '{}',
          // An admin path answers 401 to anyone else, known or not.
          ...(path.startsWith('/admin/') ? { token: e2e.app.adminToken } : {}),
        });
        const noRoute = response.status === 404 && String(response.body?.error?.message).startsWith('no route');
        expect(noRoute, `${method} ${path}`).toBe(false);
      }
    }
  });
});

describe('GET /metrics', () => {
  const e2e = useE2eApp();

  it('serves Prometheus metrics to the admin token only, counting requests by route', async () => {
    await http(`${e2e.url}/healthz`);
    expect((await http(`${e2e.url}/metrics`)).status).toBe(401);
    const metrics = await http(`${e2e.url}/metrics`, { token: e2e.app.adminToken });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(/palaver_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1/);
    expect(metrics.text).toContain('process_resident_memory_bytes');
  });
});
