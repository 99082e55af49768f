import { randomUUID } from 'node:crypto';
import { SearchMessages as M } from '@palaver/contracts';
import { loadConfig } from '@palaver/platform';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pointId } from '../domain/point-id';
import { searchPerTest } from '../testing/search-per-test';
import { DocumentRepository } from './document.repository';
import { KnowledgeRevisionRepository } from './knowledge-revision.repository';
import { LexicalIndex, REVISION_CHECK_MS } from './lexical-index';

const t = searchPerTest();
let documents: DocumentRepository;
const projectId = randomUUID();

beforeEach(() => {
  documents = new DocumentRepository(t.h.infra.documents);
});

/** Another search process over the same stores, or this one after a restart: nothing in memory. */
const otherInstance = (maxTokens = loadConfig({}).LEXICAL_INDEX_MAX_TOKENS) =>
  new LexicalIndex(documents, new KnowledgeRevisionRepository(t.h.infra.documents), t.clock, { LEXICAL_INDEX_MAX_TOKENS: maxTokens });

const create = (title: string, content: string, project = projectId) =>
  t.h.send(M.createDocument, { projectId: project, body: { title, url: `https://shop.example.com/${randomUUID()}`, content } });

/** The point id of the document's first chunk at its current version. */
const firstChunk = async (documentId: string) => pointId(documentId, (await documents.find(projectId, documentId))!.version, 0);

describe('lexical index', () => {
  it("is rebuilt from the project's documents by an instance that never saw them (a restart)", async () => {
    const pets = await create('Pet supplies', 'We stock hamster cages and bedding.');
    await create('Opening hours', 'Open Monday to Friday.');
    const hits = await otherInstance().search(projectId, 'hamster bedding', 5);
    expect(hits.map((hit) => [hit.documentId, hit.chunkIds])).toEqual([[pets.id, [await firstChunk(pets.id)]]]);
  });

  it("follows another instance's writes once it reads the project's revision again", async () => {
    const pets = await create('Pet supplies', 'We stock hamster cages and bedding.');
    const other = otherInstance();
    expect(await other.search(projectId, 'hamster', 5)).toHaveLength(1);

    await t.h.send(M.updateDocument, { projectId, documentId: pets.id, patch: { content: 'We stock gerbil cages.' } });
    const hours = await create('Opening hours', 'Open Monday to Friday.');
    expect(await other.search(projectId, 'gerbil', 5)).toEqual([]); // read less than a second ago
    t.clock.advance(REVISION_CHECK_MS);
    expect((await other.search(projectId, 'gerbil', 5)).map((hit) => hit.chunkIds)).toEqual([[await firstChunk(pets.id)]]);
    expect(await other.search(projectId, 'hamster', 5)).toEqual([]);
    expect(await other.search(projectId, 'monday', 5)).toHaveLength(1);

    await t.h.send(M.deleteDocument, { projectId, documentId: hours.id });
    t.clock.advance(REVISION_CHECK_MS);
    expect(await other.search(projectId, 'monday', 5)).toEqual([]);
  });

  it("applies this instance's writes at once and counts each in the project's revision", async () => {
    const revisions = new KnowledgeRevisionRepository(t.h.infra.documents);
    const first = await create('Pet supplies', 'We stock hamster cages.');
    expect((await t.h.send(M.search, { projectId, q: 'hamster', size: 5 })).results).toHaveLength(1);
    await t.h.send(M.updateDocument, { projectId, documentId: first.id, patch: { content: 'We stock gerbil cages.' } });
    // No clock move: the service's own index already holds the update.
    expect((await t.h.send(M.search, { projectId, q: 'gerbil', size: 5 })).results.map((r) => r.title)).toEqual(['Pet supplies']);
    expect(await revisions.read(projectId)).toBe(2);
  });

  it('drops the least recently searched projects past its budget of terms, and rebuilds them on their next search', async () => {
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    // Five or six terms each, once the analyzer has dropped the stop words.
    await create('Pet supplies', 'We stock hamster cages and bedding.', first);
    await create('Garden', 'We sell spades, rakes and seeds.', second);
    await create('Opening hours', 'Open Monday to Friday.', third);
    const index = otherInstance(12); // room for two of the three projects
    const rebuilds = vi.spyOn(documents, 'pageByIdAfter');
    const rebuilt = () => rebuilds.mock.calls.map(([project]) => project);

    await index.search(first, 'hamster', 5);
    await index.search(second, 'spades', 5);
    await index.search(first, 'hamster', 5); // now the most recently searched
    expect(rebuilt()).toEqual([first, second]);
    await index.search(third, 'monday', 5); // over the budget: the second goes
    expect((await index.search(first, 'bedding', 5)).map((hit) => hit.score > 0)).toEqual([true]);
    expect(rebuilt()).toEqual([first, second, third]);
    const again = await index.search(second, 'rakes', 5);
    expect(again).toHaveLength(1);
    expect(rebuilt()).toEqual([first, second, third, second]);
  });

  it('keeps the project being searched even when it alone is over the budget', async () => {
    await create('Pet supplies', 'We stock hamster cages and bedding.');
    const index = otherInstance(1);
    const rebuilds = vi.spyOn(documents, 'pageByIdAfter');
    expect(await index.search(projectId, 'hamster', 5)).toHaveLength(1);
    expect(await index.search(projectId, 'cages', 5)).toHaveLength(1);
    expect(rebuilds).toHaveBeenCalledTimes(1);
  });
});
