import { randomUUID } from 'node:crypto';
import { SearchMessages as M } from '@palaver/contracts';
import { ManualClock } from '@palaver/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentRepository } from './document.repository';
import { pointId } from './domain/point-id';
import { KnowledgeRevisionRepository } from './knowledge-revision.repository';
import { LexicalIndex, REVISION_CHECK_MS } from './lexical.index';
import { type SearchHarness, startSearchHarness } from './testing/search.harness';

let h: SearchHarness;
let clock: ManualClock;
let documents: DocumentRepository;
const projectId = randomUUID();

beforeEach(async () => {
  clock = new ManualClock(new Date('2026-03-01T10:00:00.000Z'));
  h = await startSearchHarness({ clock });
  documents = new DocumentRepository(h.infra.documents);
});

afterEach(async () => {
  await h.close();
});

/** Another search process over the same stores, or this one after a restart: nothing in memory. */
const otherInstance = () => new LexicalIndex(documents, new KnowledgeRevisionRepository(h.infra.documents), clock);

const create = (title: string, content: string) =>
  h.send(M.createDocument, { projectId, body: { title, url: `https://shop.example.com/${randomUUID()}`, content } });

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

    await h.send(M.updateDocument, { projectId, documentId: pets.id, patch: { content: 'We stock gerbil cages.' } });
    const hours = await create('Opening hours', 'Open Monday to Friday.');
    expect(await other.search(projectId, 'gerbil', 5)).toEqual([]); // read less than a second ago
    clock.advance(REVISION_CHECK_MS);
    expect((await other.search(projectId, 'gerbil', 5)).map((hit) => hit.chunkIds)).toEqual([[await firstChunk(pets.id)]]);
    expect(await other.search(projectId, 'hamster', 5)).toEqual([]);
    expect(await other.search(projectId, 'monday', 5)).toHaveLength(1);

    await h.send(M.deleteDocument, { projectId, documentId: hours.id });
    clock.advance(REVISION_CHECK_MS);
    expect(await other.search(projectId, 'monday', 5)).toEqual([]);
  });

  it("applies this instance's writes at once and counts each in the project's revision", async () => {
    const revisions = new KnowledgeRevisionRepository(h.infra.documents);
    const first = await create('Pet supplies', 'We stock hamster cages.');
    expect((await h.send(M.search, { projectId, q: 'hamster', size: 5 })).results).toHaveLength(1);
    await h.send(M.updateDocument, { projectId, documentId: first.id, patch: { content: 'We stock gerbil cages.' } });
    // No clock move: the service's own index already holds the update.
    expect((await h.send(M.search, { projectId, q: 'gerbil', size: 5 })).results.map((r) => r.title)).toEqual(['Pet supplies']);
    expect(await revisions.read(projectId)).toBe(2);
  });
});
