import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN_ACTOR, SearchMessages as M, SearchResult } from '@palaver/contracts';
import { type Embedder, LocalEmbedder } from '@palaver/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentChunks } from './domain/knowledge-text';
import { FIXTURE_PAGES, PARAPHRASED_QUESTIONS } from './testing/knowledge.fixture';
import { type SearchHarness, startSearchHarness } from './testing/search.harness';

let h: SearchHarness;
const projectId = randomUUID();
const otherProjectId = randomUUID();

beforeEach(async () => {
  h = await startSearchHarness();
});

afterEach(async () => {
  await h.close();
});

const loadFixture = async (project = projectId) => {
  for (const body of Object.values(FIXTURE_PAGES)) await h.send(M.createDocument, { projectId: project, body });
};

describe('search service: semantic search', () => {
  it('answers health', async () => {
    expect(await h.send(M.health, {})).toEqual({ ok: true });
  });

  it('finds nothing in an empty knowledge base', async () => {
    expect(await h.send(M.search, { projectId, q: 'shipping', size: 10 })).toEqual({ results: [] });
  });

  it.each(PARAPHRASED_QUESTIONS)('ranks the right page first for "%s"', async (question, page) => {
    await loadFixture();
    const { results } = await h.send(M.search, { projectId, q: question, size: 5 });
    expect(results[0]?.url).toBe(FIXTURE_PAGES[page].url);
  });

  it('returns results with score, title, chunk content, url, path and product fields, best first', async () => {
    await loadFixture();
    const { results } = await h.send(M.search, { projectId, q: 'noise cancelling headphones price', size: 10 });
    for (const r of results) expect(SearchResult.safeParse(r).success).toBe(true);
    expect(results.map((r) => r.score)).toEqual([...results.map((r) => r.score)].sort((a, b) => b - a));
    // The product page, with every field of its document but the whole text (a result carries its chunk).
    const { content: _wholeText, ...product } = FIXTURE_PAGES.product;
    expect(results[0]).toMatchObject({ ...product, path: '/products/aurora-x2' });
    expect(results[0]!.content).toContain('active noise cancelling');
    expect(results[0]!.score).toBeGreaterThan(0);
    const shipping = results.find((r) => r.url === FIXTURE_PAGES.shipping.url);
    if (shipping) expect(shipping).not.toHaveProperty('price');
  });

  it('returns the matching chunk of a long document, and each document once', async () => {
    const sections = Array.from(
      { length: 12 },
      (_, i) => `## Topic ${i}\n${`Paragraph about subject number ${i} of the big manual with filler words. `.repeat(15)}`,
    );
    sections[7] = '## Gift cards\nGift cards never expire and can be used online and in our stores. '.repeat(3);
    await h.send(M.createDocument, {
      projectId,
      body: { title: 'Big manual', url: 'https://shop.example.com/manual', content: `# Manual\n${sections.join('\n')}` },
    });
    await loadFixture();
    const { results } = await h.send(M.search, { projectId, q: 'do gift cards expire', size: 50 });
    expect(results[0]!.url).toBe('https://shop.example.com/manual');
    expect(results[0]!.content).toContain('Gift cards never expire');
    const urls = results.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('honours size: 1 gives one result, 50 gives every matching document once', async () => {
    await loadFixture();
    const one = await h.send(M.search, { projectId, q: 'order', size: 1 });
    expect(one.results).toHaveLength(1);
    const all = await h.send(M.search, { projectId, q: 'our store order item days', size: 50 });
    expect(all.results.length).toBeGreaterThanOrEqual(4);
    expect(all.results.length).toBeLessThanOrEqual(Object.keys(FIXTURE_PAGES).length);
    expect(new Set(all.results.map((r) => r.url)).size).toBe(all.results.length);
  });

  it('rejects requests outside the bounds, even from a caller that skipped validation', async () => {
    await loadFixture();
    const bad = [
      { projectId, q: 'x', size: 0 },
      { projectId, q: 'x', size: 51 },
      { projectId, q: 'x', size: 2.5 },
      { projectId, q: '', size: 10 },
      { projectId, q: 'x'.repeat(501), size: 10 },
      { projectId: 'not-a-uuid', q: 'x', size: 10 },
      { projectId, q: 'x' },
    ];
    for (const payload of bad) {
      const reply = await h.sendRaw(M.search, payload);
      expect(reply.ok, JSON.stringify(payload).slice(0, 80)).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('VALIDATION_ERROR');
    }
    const longest = await h.sendRaw(M.search, { projectId, q: `shipping ${'y'.repeat(491)}`, size: 50 });
    expect(longest.ok).toBe(true);
  });

  it("never returns another project's documents", async () => {
    await loadFixture(otherProjectId);
    expect((await h.send(M.search, { projectId, q: 'warranty on electronics', size: 10 })).results).toEqual([]);
    await loadFixture();
    const { results } = await h.send(M.search, { projectId: otherProjectId, q: 'warranty', size: 50 });
    expect(results.filter((r) => r.url === FIXTURE_PAGES.warranty.url)).toHaveLength(1);
  });
});

describe('search service: retrieval for replies', () => {
  it('returns the best Q&A entries and chunks with scores', async () => {
    await loadFixture();
    const shipAbroad = await h.send(M.createQna, {
      actor: ADMIN_TOKEN_ACTOR,
      projectId,
      body: { question: 'Do you ship abroad?', answer: 'Yes, we deliver to 30 countries in Europe.' },
    });
    await h.send(M.createQna, {
      actor: ADMIN_TOKEN_ACTOR,
      projectId,
      body: { question: 'Can I pay with PayPal?', answer: 'Yes, PayPal and all major cards are accepted.' },
    });
    const retrieval = await h.send(M.retrieve, {
      projectId,
      query: 'is international delivery possible',
      qnaLimit: 1,
      chunkLimit: 3,
    });
    expect(retrieval.qnas).toEqual([
      { id: shipAbroad.id, question: shipAbroad.question, answer: shipAbroad.answer, score: expect.any(Number) },
    ]);
    expect(retrieval.chunks.length).toBeGreaterThan(0);
    expect(retrieval.chunks.length).toBeLessThanOrEqual(3);
    expect(retrieval.chunks[0]).toMatchObject({ title: 'Shipping', url: FIXTURE_PAGES.shipping.url });
    expect(retrieval.chunks[0]!.content).toContain('international parcels');
    expect(retrieval.chunks.map((c) => c.score)).toEqual([...retrieval.chunks.map((c) => c.score)].sort((a, b) => b - a));
  });

  it('honours zero limits and rejects limits out of bounds', async () => {
    await loadFixture();
    await h.send(M.createQna, { actor: ADMIN_TOKEN_ACTOR, projectId, body: { question: 'Do you ship abroad?', answer: 'Yes.' } });
    expect(await h.send(M.retrieve, { projectId, query: 'ship abroad', qnaLimit: 0, chunkLimit: 0 })).toEqual({
      qnas: [],
      chunks: [],
    });
    const chunksOnly = await h.send(M.retrieve, { projectId, query: 'ship abroad', qnaLimit: 0, chunkLimit: 20 });
    expect(chunksOnly.qnas).toEqual([]);
    expect(chunksOnly.chunks.length).toBeGreaterThan(0);
    for (const payload of [
      { projectId, query: 'x', qnaLimit: 21, chunkLimit: 1 },
      { projectId, query: 'x', qnaLimit: 1, chunkLimit: -1 },
      { projectId, query: '', qnaLimit: 1, chunkLimit: 1 },
    ]) {
      const reply = await h.sendRaw(M.retrieve, payload);
      expect(reply.ok).toBe(false);
    }
  });

  it('embeds the query once for Q&A and chunks while the project has no documents', async () => {
    const local = new LocalEmbedder();
    let queries = 0;
    const counting: Embedder = {
      name: local.name,
      dimensions: local.dimensions,
      termWeighting: local.termWeighting,
      embed: (texts, kind) => {
        if (kind === 'query') queries += texts.length;
        return local.embed(texts, kind);
      },
    };
    const harness = await startSearchHarness({ embedder: counting });
    try {
      const qna = await harness.send(M.createQna, {
        actor: ADMIN_TOKEN_ACTOR,
        projectId,
        body: { question: 'Do you ship abroad?', answer: 'Yes.' },
      });
      queries = 0;
      const retrieval = await harness.send(M.retrieve, { projectId, query: 'ship abroad', qnaLimit: 1, chunkLimit: 5 });
      expect(retrieval).toEqual({ qnas: [expect.objectContaining({ id: qna.id })], chunks: [] });
      expect(queries).toBe(1);
    } finally {
      await harness.close();
    }
  });

  it("does not retrieve another project's entries or chunks", async () => {
    await loadFixture(otherProjectId);
    await h.send(M.createQna, {
      actor: ADMIN_TOKEN_ACTOR,
      projectId: otherProjectId,
      body: { question: 'Do you ship abroad?', answer: 'Yes.' },
    });
    expect(await h.send(M.retrieve, { projectId, query: 'ship abroad', qnaLimit: 5, chunkLimit: 5 })).toEqual({
      qnas: [],
      chunks: [],
    });
  });
});

/** Four pages about accounts and one about pets: "account" is on almost every page, "hamster" on one. */
const ACCOUNT_PAGES = [
  ['Account settings', 'Manage your account: account name, account e-mail and account password live in the account settings.'],
  ['Account security', 'Protect your account with two-factor login. We lock an account after five failed attempts.'],
  ['Closing an account', 'You can close your account at any time; the account data is erased after 30 days.'],
  ['Business accounts', 'A business account can invite colleagues to the same account and share invoices.'],
  ['Pet supplies', 'We stock hamster cages, bedding, food and toys for small pets, delivered in two days.'],
] as const;

const loadAccountPages = async (harness: SearchHarness, project: string) => {
  for (const [title, content] of ACCOUNT_PAGES) {
    await harness.send(M.createDocument, {
      projectId: project,
      body: { title, url: `https://shop.example.com/help/${title.toLowerCase().replace(/ /g, '-')}`, content },
    });
  }
};

/** The local embedder without its term weighting: how the service sees an embedding model. */
const modelLikeEmbedder = (): Embedder => {
  const local = new LocalEmbedder();
  return { name: 'model-like', dimensions: local.dimensions, embed: (texts, kind) => local.embed(texts, kind) };
};

describe('search service: term weighting (local embedder)', () => {
  it('weights the query by how rare its words are among the chunks: a word on every page counts for little', async () => {
    await loadAccountPages(h, projectId);
    const { results } = await h.send(M.search, { projectId, q: 'account hamster', size: 5 });
    expect(results[0]!.title).toBe('Pet supplies');
    const retrieval = await h.send(M.retrieve, { projectId, query: 'account hamster', qnaLimit: 0, chunkLimit: 2 });
    expect(retrieval.chunks[0]!.title).toBe('Pet supplies');
    // The search's score is the fused one (1: best on both BM25 and cosine); a reply's chunk keeps its cosine.
    expect(results[0]!.score).toBeCloseTo(1, 12);
    expect(retrieval.chunks[0]!.score).toBeGreaterThan(0.2);
    expect(retrieval.chunks[0]!.score).toBeLessThan(1);
  });

  it("weights by the project's own chunks", async () => {
    await loadAccountPages(h, projectId);
    for (const [title, content] of [
      ['Hamster food', 'Seed mix for hamster and gerbil, 1 kg bag.'],
      ['Hamster cages', 'Large hamster cage with wheel and tunnels.'],
      ['Hamster care', 'How to keep your hamster healthy: bedding, food, play.'],
      ['Your account', 'Sign up for an account to follow your orders.'],
    ] as const) {
      await h.send(M.createDocument, {
        projectId: otherProjectId,
        body: { title, url: `https://pets.example.com/${title.length}`, content },
      });
    }
    const mine = await h.send(M.search, { projectId, q: 'account hamster', size: 5 });
    const theirs = await h.send(M.search, { projectId: otherProjectId, q: 'account hamster', size: 5 });
    expect(mine.results[0]!.title).toBe('Pet supplies');
    expect(theirs.results[0]!.title).toBe('Your account');
  });

  it('leaves Q&A scores to the unweighted query: adding documents does not change them', async () => {
    const qna = await h.send(M.createQna, {
      actor: ADMIN_TOKEN_ACTOR,
      projectId,
      body: { question: 'Can I close my account?', answer: 'Yes, any time.' },
    });
    const ask = () => h.send(M.retrieve, { projectId, query: 'how do I close my account', qnaLimit: 1, chunkLimit: 3 });
    const before = await ask();
    await loadAccountPages(h, projectId);
    const after = await ask();
    expect(after.qnas.map((q) => q.id)).toEqual([qna.id]);
    expect(after.qnas[0]!.score).toBeCloseTo(before.qnas[0]!.score, 12);
    expect(after.qnas[0]!.score).toBeGreaterThan(0.7);
    expect(after.chunks[0]!.title).toBe('Closing an account');
  });
});

describe('search service: with an embedder that has no term weighting', () => {
  it('fuses BM25 with the plain cosine of the embeddings and counts no term statistics', async () => {
    const harness = await startSearchHarness({ embedder: modelLikeEmbedder() });
    try {
      await loadAccountPages(harness, projectId);
      // Plain cosine prefers the page that repeats "account"; BM25 knows "hamster" is the rare word.
      const { results } = await harness.send(M.search, { projectId, q: 'account hamster', size: 5 });
      expect(results.map((r) => r.title).slice(0, 2)).toEqual(['Pet supplies', 'Account settings']);
      const local = new LocalEmbedder();
      const [query] = await local.embed(['account hamster'], 'query');
      const [page] = documentChunks(ACCOUNT_PAGES[0][0], ACCOUNT_PAGES[0][1]);
      const [chunk] = await local.embed([page!.text], 'document');
      const retrieval = await harness.send(M.retrieve, { projectId, query: 'account hamster', qnaLimit: 1, chunkLimit: 5 });
      const settings = retrieval.chunks.find((c) => c.title === 'Account settings');
      expect(settings!.score).toBeCloseTo(
        query!.reduce((sum, v, i) => sum + v * chunk![i]!, 0),
        6,
      );
      expect(await harness.infra.documents.collection('search_term_stats').count({})).toBe(0);
    } finally {
      await harness.close();
    }
  });
});
