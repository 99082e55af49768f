import { randomUUID } from 'node:crypto';
import { ErrorBody } from '@palaver/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from '../support/e2e-app';
import { type JsonSchema, SchemaArbitraries } from './schema-arbitrary';

/**
 * Property-based requests against every route of the OpenAPI document (so routes added later
 * are covered without a list to maintain), generated from the same schemas the gateway parses
 * with: path ids, query parameters and bodies that are valid, nearly valid or garbage, with the
 * right, a wrong or no credential. Property: never a 5xx, and every error in the spec's envelope.
 *
 * CI runs FUZZ_RUNS=4 requests per route (a few seconds); a longer run: `FUZZ_RUNS=200 npx vitest
 * run test/fuzz` (FUZZ_SEED=<n> replays a failure reported with its seed).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const REQUEST_TIMEOUT_MS = 15_000;

interface Operation {
  method: string;
  path: string;
  security: string[];
  parameters: Array<{ name: string; in: string; schema: JsonSchema; required?: boolean }>;
  body?: JsonSchema;
}

interface FuzzRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

describe('fuzz: every route, generated requests', () => {
  let e2e: E2eApp;
  let operations: Operation[];
  let arbitraries: SchemaArbitraries;
  const credentials: Record<string, string> = {};
  const knownIds: Record<string, string> = {};
  /** Deleting the project is fuzzed on a throwaway one: the fuzz project must outlive it for every later route. */
  let throwawayProjectId: string;
  const idsOf = (op: Operation): Record<string, string> =>
    op.method === 'DELETE' && op.path === '/admin/v1/projects/{projectId}' ? { ...knownIds, projectId: throwawayProjectId } : knownIds;

  beforeAll(async () => {
    // Generated website sources name random hosts: none may be looked up or crawled from a test.
    e2e = await startE2eApp({ OUTBOUND_ALLOWED_HOSTS: 'fuzz.invalid' });
    const { project, publishableKey, privateKey } = await e2e.admin.createProject({ name: 'Fuzz shop' });
    const { token } = await newVisitor(e2e.url, publishableKey);
    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'hello' }, token });
    const reply = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data[0];
    const agent = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Fuzz agent' });
    const cannedReply = await e2e.admin.call('POST', `/projects/${project.id}/canned-replies`, {
      shortcut: 'fuzz',
      title: 'Fuzz',
      content: 'Hi',
    });
    const qna = await e2e.admin.call('POST', `/projects/${project.id}/qnas`, { question: 'Opening hours?', answer: 'Nine to five.' });
    const document = await e2e.admin.call('POST', `/projects/${project.id}/documents`, {
      title: 'Returns',
      url: 'https://fuzz.invalid/returns',
      content: 'Returns are free within 30 days.',
    });
    throwawayProjectId = (await e2e.admin.createProject({ name: 'Fuzz throwaway' })).project.id;
    const colleague = await e2e.admin.call('POST', '/users', { email: 'colleague@fuzz.example', name: 'Fuzz colleague' });
    const apiToken = await personalToken(e2e);
    Object.assign(credentials, {
      publishableKey,
      sessionToken: token,
      privateKey,
      serviceKey: privateKey,
      adminToken: e2e.app.adminToken,
      agentToken: agent.token,
      apiToken,
    });
    Object.assign(knownIds, {
      projectId: project.id,
      conversationId,
      chatId: conversationId,
      messageId: reply.id,
      assistantId: project.defaultAssistantId,
      appUserId: 'fuzz-user',
      cannedReplyId: cannedReply.id,
      agentId: agent.id,
      qnaId: qna.id,
      documentId: document.id,
      userId: colleague.id,
    });

    const openapi = (await http(`${e2e.url}/openapi.json`)).body;
    arbitraries = new SchemaArbitraries(openapi.components?.schemas ?? {});
    operations = Object.entries(openapi.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        security: (operation.security ?? []).flatMap((s: object) => Object.keys(s)),
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema,
      })),
    );
  });
  afterAll(() => e2e?.stop());

  const pathValue = (name: string, ids: Record<string, string>): fc.Arbitrary<string> =>
    fc.oneof(
      { weight: 4, arbitrary: ids[name] ? fc.constant(ids[name]) : fc.uuid() },
      { weight: 2, arbitrary: fc.uuid() },
      { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
      { weight: 1, arbitrary: fc.constantFrom('%ZZ', 'a'.repeat(101), '..', '%00', 'null') },
    );

  const credential = (op: Operation): fc.Arbitrary<string | null> => {
    const scheme = op.security[0];
    const real = scheme && credentials[scheme] ? fc.constant(credentials[scheme]!) : fc.constant(null);
    return fc.oneof(
      { weight: 6, arbitrary: real },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    );
  };

  /** A request as a client means it (known ids, valid values, the right credential), or a fuzzed one. */
  const request = (op: Operation): fc.Arbitrary<FuzzRequest> => fc.oneof(build(op, true), build(op, false));

  const build = (op: Operation, wellFormed: boolean): fc.Arbitrary<FuzzRequest> => {
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const ids = idsOf(op);
    const path = fc.record(
      Object.fromEntries(pathParams.map((p) => [p.name, wellFormed ? fc.constant(ids[p.name] ?? randomUUID()) : pathValue(p.name, ids)])),
    );
    const query = fc.record(
      Object.fromEntries(
        queryParams.map((p) => [
          p.name,
          wellFormed
            ? arbitraries.valid(p.schema, 0, true)
            : fc.oneof(arbitraries.anyValue(p.schema), fc.array(arbitraries.valid(p.schema), { minLength: 2, maxLength: 2 })),
        ]),
      ),
      { requiredKeys: wellFormed ? queryParams.filter((p) => p.required).map((p) => p.name) : [] },
    );
    const body = !op.body
      ? fc.constant(undefined)
      : wellFormed
        ? arbitraries.valid(op.body, 0, true).map((value) => ({ raw: JSON.stringify(value) ?? 'null', type: 'application/json' }))
        : fc.oneof(
            {
              weight: 8,
              arbitrary: arbitraries.anyValue(op.body).map((value) => ({ raw: JSON.stringify(value) ?? 'null', type: 'application/json' })),
            },
            { weight: 1, arbitrary: fc.constantFrom('{"a":', '[', '\u0000', '').map((raw) => ({ raw, type: 'application/json' })) },
            { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((raw) => ({ raw, type: 'text/plain' })) },
          );
    const scheme = op.security[0];
    const key = wellFormed ? fc.constant(scheme ? (credentials[scheme] ?? null) : null) : credential(op);
    // Each request from its own address: the wrong credentials generated would otherwise get this
    // one refused by the admin token's throttle (tested in admin-auth) before the later routes run.
    return fc.record({ path, query, body, credential: key, address: fc.ipV4() }).map(({ path, query, body, credential, address }) => {
      let url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => path[name] ?? 'x');
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        for (const one of [value].flat()) search.append(name, typeof one === 'string' ? one : (JSON.stringify(one) ?? ''));
      }
      if (op.security[0] === 'publishableKey' && credential !== null && (wellFormed || !search.has('apiKey')))
        search.set('apiKey', credential);
      if ([...search].length > 0) url += `?${search}`;
      const headers: Record<string, string> = { 'x-forwarded-for': address };
      if (credential !== null && op.security[0] === 'serviceKey') headers['x-service-key'] = credential;
      else if (credential !== null && op.security[0] !== 'publishableKey') headers.authorization = `Bearer ${credential}`;
      if (body) headers['content-type'] = body.type;
      return { url, method: op.method, headers, ...(body ? { body: body.raw } : {}) };
    });
  };

  const send = async (req: FuzzRequest) => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await fetch(`${e2e.url}${req.url}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: abort.signal,
      });
      const type = response.headers.get('content-type') ?? '';
      // A live event stream never ends: its status and headers are the answer.
      if (type.includes('text/event-stream') && req.method === 'GET') {
        abort.abort();
        return { status: response.status, type, text: '' };
      }
      return { status: response.status, type, text: await response.text() };
    } finally {
      clearTimeout(timer);
    }
  };

  it(
    'answers every generated request without a 5xx, errors in the envelope',
    async () => {
      expect(operations.length).toBeGreaterThan(20);
      const answered = new Set<string>();
      for (const op of operations) {
        await fc.assert(
          fc.asyncProperty(request(op), async (req) => {
            const { status, type, text } = await send(req);
            const where = `${req.method} ${req.url} -> ${status}: ${text.slice(0, 300)}`;
            if (status < 300) answered.add(`${op.method} ${op.path}`);
            expect(status, where).toBeLessThan(500);
            if (status >= 400) {
              expect(type, where).toContain('application/json');
              const parsed = ErrorBody.safeParse(JSON.parse(text));
              expect(parsed.success, where).toBe(true);
              expect(parsed.data?.error.code, where).toEqual(expect.any(String));
            }
          }),
          { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
        );
      }
      // The generated requests get past authentication and validation, not only into 4xx.
      if (process.env.FUZZ_DEBUG)
        console.log(operations.filter((op) => !answered.has(`${op.method} ${op.path}`)).map((op) => `${op.method} ${op.path}`));
      expect(answered.size).toBeGreaterThan(operations.length / 2);
    },
    Math.max(60_000, RUNS * 70 * 500),
  );
});

/** A person's API token (`pat_…`): a user signs in, then makes one, as the dashboard's Settings would. */
const personalToken = async (e2e: E2eApp): Promise<string> => {
  const email = 'owner@fuzz.example';
  const password = 'a long passphrase nobody guesses';
  await e2e.admin.call('POST', '/users', { email, name: 'Fuzz owner', password });
  const origin = { origin: e2e.url };
  const login = await http(`${e2e.url}/auth/v1/login`, { body: { email, password }, headers: origin });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const created = await http(`${e2e.url}/auth/v1/tokens`, { body: { name: 'fuzz' }, headers: { ...origin, cookie } });
  if (created.status !== 201) throw new Error(`no personal token: ${created.status} ${created.text}`);
  return created.body.token as string;
};
