import { pagedList, Qna, SearchResponse } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newConversation, startE2eApp } from './support/e2e-app';
import { parseUiMessageStream } from './support/ui-stream';

const PAGES = [
  {
    title: 'Warranty',
    url: 'https://shop.example/help/warranty',
    content: '# Warranty\n\nEvery product has a two year warranty covering manufacturing defects. Repairs are free.',
  },
  {
    title: 'Shipping',
    url: 'https://shop.example/help/shipping',
    content: '# Shipping\n\nParcels are delivered within three business days by our courier partners.',
  },
  {
    title: 'Returns',
    url: 'https://shop.example/help/returns',
    content: '# Returns\n\nYou can send back any item within 30 days for a full refund of the purchase price.',
  },
  {
    title: 'Aurora X2 Headphones',
    url: 'https://shop.example/products/aurora-x2',
    content: 'Wireless noise-cancelling headphones with 30 hours of battery life.',
    productId: 'AX2',
    price: 199,
    currency: 'EUR',
    availability: 'in_stock',
    vendor: 'Aurora',
  },
];

describe('knowledge: documents, search and Q&A through HTTP', () => {
  let e2e: E2eApp;
  let projectId: string;
  let apiKey: string;
  const documentIds: string[] = [];

  beforeAll(async () => {
    e2e = await startE2eApp();
    const created = await e2e.admin.createProject();
    projectId = created.project.id;
    apiKey = created.publishableKey;
    for (const page of PAGES) documentIds.push((await e2e.admin.call('POST', `/projects/${projectId}/documents`, page)).id);
    for (const [question, answer] of [
      ['What are your opening hours?', 'Monday to Friday, 9:00 to 17:00.'],
      ['Do you ship abroad?', 'Yes, to every EU country.'],
      ['Can I pay by invoice?', 'Yes, for business customers.'],
    ]) {
      await e2e.admin.call('POST', `/projects/${projectId}/qnas`, { question, answer, createdBy: { name: 'Sam', image: null } });
    }
  });
  afterAll(() => e2e.stop());

  const search = (q: string, extra = '') => http(`${e2e.url}/v2/search?apiKey=${apiKey}&q=${encodeURIComponent(q)}${extra}`);

  it('finds the right page first for paraphrased questions', async () => {
    for (const [question, title] of [
      ['how long is the guarantee on electronics', 'Warranty'],
      ['when will my parcel arrive', 'Shipping'],
      ['can I get my money back', 'Returns'],
    ] as const) {
      const result = SearchResponse.parse((await search(question)).body);
      expect(result.results[0]?.title, question).toBe(title);
    }
  });

  it('answers every required field, passes the product fields through, and orders by score', async () => {
    const { results } = SearchResponse.parse((await search('noise cancelling headphones price')).body);
    expect(results[0]).toMatchObject({
      title: 'Aurora X2 Headphones',
      productId: 'AX2',
      price: 199,
      currency: 'EUR',
      vendor: 'Aurora',
      path: '/products/aurora-x2',
    });
    const scores = results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('holds the bounds of size (default 10, 1 to 50) and q (1 to 500 chars)', async () => {
    expect((await search('help', '&size=1')).body.results).toHaveLength(1);
    expect((await search('help', '&size=50')).status).toBe(200);
    expect((await search('help', '&size=0')).status).toBe(422);
    expect((await search('help', '&size=51')).status).toBe(422);
    expect((await search('x'.repeat(500))).status).toBe(200);
    expect((await search('x'.repeat(501))).status).toBe(422);
    expect((await http(`${e2e.url}/v2/search?apiKey=${apiKey}&q=`)).status).toBe(422);
    expect((await http(`${e2e.url}/v2/search?q=help`)).status).toBe(401);
  });

  it('a document update replaces its content in the index, a delete removes it', async () => {
    await e2e.admin.call('PATCH', `/projects/${projectId}/documents/${documentIds[1]}`, {
      content: '# Shipping\n\nWe deliver by drone to the rooftop garden.',
    });
    expect((await search('drone rooftop garden')).body.results[0].title).toBe('Shipping');
    await e2e.admin.call('DELETE', `/projects/${projectId}/documents/${documentIds[1]}`);
    const after = SearchResponse.parse((await search('drone rooftop garden')).body);
    expect(after.results.map((r) => r.title)).not.toContain('Shipping');
  });

  it('lists Q&A publicly with full-text query, limit and offset', async () => {
    const list = pagedList(Qna).parse((await http(`${e2e.url}/v2/projects/${projectId}/qnas`)).body);
    expect(list).toMatchObject({ object: 'list', total: 3, limit: 10, offset: 0 });
    expect(list.data[0]!.createdBy).toEqual({ name: 'Sam', image: null });
    const found = (await http(`${e2e.url}/v2/projects/${projectId}/qnas?query=opening`)).body;
    expect(found.data.map((q: { question: string }) => q.question)).toEqual(['What are your opening hours?']);
    const page = (await http(`${e2e.url}/v2/projects/${projectId}/qnas?limit=1&offset=2`)).body;
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 2 });
    expect(page.data).toHaveLength(1);
    for (const [query, status] of [
      ['limit=0', 422],
      ['limit=100', 200],
      ['limit=101', 422],
      ['offset=-1', 422],
      [`query=${'q'.repeat(300)}`, 200],
      [`query=${'q'.repeat(301)}`, 422],
    ] as const) {
      expect((await http(`${e2e.url}/v2/projects/${projectId}/qnas?${query}`)).status, query).toBe(status);
    }
  });

  it('gets one Q&A entry, and 404 for an entry of another project', async () => {
    const list = (await http(`${e2e.url}/v2/projects/${projectId}/qnas`)).body;
    const qnaId = list.data[0].id;
    const one = await http(`${e2e.url}/v2/projects/${projectId}/qnas/${qnaId}`);
    expect(Qna.parse(one.body).id).toBe(qnaId);
    const other = await e2e.admin.createProject({ name: 'other' });
    const cross = await http(`${e2e.url}/v2/projects/${other.project.id}/qnas/${qnaId}`);
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe('QNA_NOT_FOUND');
  });

  it('grounds visitor answers in the documents through the local responder', async () => {
    const { token, conversationId } = await newConversation(e2e.url, apiKey);
    const answer = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'How long is the guarantee on electronics?' },
      token,
    });
    expect(answer.body.steps[0].content[0].text).toMatch(/two year warranty/i);
    const unknown = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'Do you sell garden gnomes made of marble?' },
      token,
    });
    expect(unknown.body.steps[0].content[0].text).toMatch(/don.t know|not sure|no information|couldn.t find/i);
  });

  it('names the sources of a reply on the text part (AI SDK reader) and in the stored message', async () => {
    const { token, conversationId } = await newConversation(e2e.url, apiKey);
    const streamed = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'How long is the guarantee on electronics?', stream: true },
      token,
    });
    const parsed = await parseUiMessageStream(streamed.text);
    expect(parsed.chunks.map((c) => c.type)).toEqual([
      'start',
      'start-step',
      'text-start',
      ...parsed.chunks.filter((c) => c.type === 'text-delta').map(() => 'text-delta'),
      'text-end',
      'finish-step',
      'finish',
    ]);
    const warranty = { title: 'Warranty', url: 'https://shop.example/help/warranty' };
    const textPart = parsed.message!.parts.find((part) => part.type === 'text');
    expect(textPart).toMatchObject({ providerMetadata: { palaver: { sources: [warranty] } } });
    const messageId = (textPart!.providerMetadata!.palaver as { messageId: string }).messageId;

    const stored = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body;
    const message = stored.data.find((m: { id: string }) => m.id === messageId);
    expect(message.metadata.sources).toEqual([warranty]);

    // A reply the knowledge does not support names no source.
    const unknown = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'Do you sell garden gnomes made of marble?', stream: true },
      token,
    });
    const none = (await parseUiMessageStream(unknown.text)).message!.parts.find((part) => part.type === 'text');
    expect(none).toMatchObject({ providerMetadata: { palaver: { sources: [] } } });
  });
});
