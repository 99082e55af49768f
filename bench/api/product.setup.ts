/** What a bench run needs in the product: a project without limits, visitors, conversations. */
export interface Visitor {
  headers: Record<string, string>;
  conversationIds: string[];
}

export const QUESTION = { content: 'What are your opening hours?' };

export const call = async (url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<any> => {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
};

/** A project without message limits and its publishable key. */
export const benchProjectKey = async (url: string, adminToken: string): Promise<string> => {
  const admin = { authorization: `Bearer ${adminToken}` };
  const project = await call(`${url}/admin/v1/projects`, 'POST', admin, {
    name: 'Bench',
    limits: { messagesPerMinute: null, monthlyMessages: null },
  });
  const body = { type: 'publishable', name: 'bench', assistantId: project.defaultAssistantId, allowedOrigins: ['*'] };
  return (await call(`${url}/admin/v1/projects/${project.id}/keys`, 'POST', admin, body)).key;
};

export const initVisitor = async (url: string, apiKey: string, saVid: string) => {
  const body = await call(`${url}/v2/identity/init`, 'POST', {}, { apiKey, saVid });
  return { headers: { authorization: `Bearer ${body.sessionToken}` } as Record<string, string>, body: body as unknown };
};

export const prepareProduct = async (url: string, adminToken: string, writers: number) => {
  const publishableKey = await benchProjectKey(url, adminToken);
  const visitor = async (saVid: string, conversations: number): Promise<Visitor> => {
    const { headers } = await initVisitor(url, publishableKey, saVid);
    const conversationIds: string[] = [];
    for (let i = 0; i < conversations; i++) conversationIds.push((await call(`${url}/v2/conversations`, 'POST', headers, {})).id);
    return { headers, conversationIds };
  };
  // The reader has what a returning visitor has: a few conversations, each with an exchange.
  const reader = await visitor('bench-reader', 3);
  for (const id of reader.conversationIds) await call(`${url}/v2/conversations/${id}/messages`, 'POST', reader.headers, QUESTION);
  const init = (await initVisitor(url, publishableKey, 'bench-init')).body;
  const conversations = await call(`${url}/v2/conversations`, 'GET', reader.headers);
  return {
    publishableKey,
    /** The bodies the baseline answers with. */
    shapes: { conversations, init },
    reader,
    writer: await visitor('bench-writer', writers),
    streamer: await visitor('bench-streamer', 10),
  };
};
export type ProductFixture = Awaited<ReturnType<typeof prepareProduct>>;
