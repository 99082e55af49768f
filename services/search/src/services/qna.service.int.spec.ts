import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN_ACTOR, SearchMessages as M, Qna } from '@palaver/contracts';
import { rejection } from '@palaver/platform/testing';
import { describe, expect, it } from 'vitest';
import { searchPerTest } from '../testing/search-per-test';

const t = searchPerTest();
const projectId = randomUUID();
const otherProjectId = randomUUID();

const create = async (question: string, answer = 'An answer.', project = projectId) => {
  const qna = await t.h.send(M.createQna, { actor: ADMIN_TOKEN_ACTOR, projectId: project, body: { question, answer } });
  t.clock.advance(1000);
  return qna;
};

const listQuestions = async (query: string | undefined, limit = 100, offset = 0) =>
  (await t.h.send(M.listQnas, { projectId, query: { query, limit, offset } })).data.map((q) => q.question);

describe('search service: Q&A entries', () => {
  it('creates, reads, updates and deletes an entry; createdBy passes through', async () => {
    const created = await t.h.send(M.createQna, {
      actor: ADMIN_TOKEN_ACTOR,
      projectId,
      body: { question: 'Do you ship abroad?', answer: 'Yes, to 30 countries.', createdBy: { name: 'Ana', image: null } },
    });
    expect(Qna.parse(created)).toEqual(created);
    expect(created).toMatchObject({
      object: 'qna',
      question: 'Do you ship abroad?',
      answer: 'Yes, to 30 countries.',
      createdBy: { name: 'Ana', image: null },
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
    });
    expect(await t.h.send(M.getQna, { projectId, qnaId: created.id })).toEqual(created);

    t.clock.advance(5000);
    const updated = await t.h.send(M.updateQna, {
      actor: ADMIN_TOKEN_ACTOR,
      projectId,
      qnaId: created.id,
      patch: { answer: 'Yes, worldwide.' },
    });
    expect(updated).toEqual({ ...created, answer: 'Yes, worldwide.', updatedAt: '2026-03-01T10:00:05.000Z' });
    expect(await t.h.send(M.getQna, { projectId, qnaId: created.id })).toEqual(updated);

    expect(await t.h.send(M.deleteQna, { actor: ADMIN_TOKEN_ACTOR, projectId, qnaId: created.id })).toEqual({ ok: true });
    const err = await rejection(t.h.send(M.getQna, { projectId, qnaId: created.id }));
    expect(err.code).toBe('QNA_NOT_FOUND');
    expect(err.details).toEqual({ qnaId: created.id });
  });

  it('leaves createdBy out when none was given', async () => {
    const qna = await create('Where is my order?');
    expect(qna).not.toHaveProperty('createdBy');
    expect(await t.h.send(M.getQna, { projectId, qnaId: qna.id })).not.toHaveProperty('createdBy');
  });

  it("answers QNA_NOT_FOUND for unknown ids and another project's entries", async () => {
    const theirs = await create('Secret question', 'Secret answer', otherProjectId);
    for (const qnaId of [randomUUID(), theirs.id]) {
      for (const call of [
        t.h.send(M.getQna, { projectId, qnaId }),
        t.h.send(M.updateQna, { actor: ADMIN_TOKEN_ACTOR, projectId, qnaId, patch: { answer: 'hijacked' } }),
        t.h.send(M.deleteQna, { actor: ADMIN_TOKEN_ACTOR, projectId, qnaId }),
      ]) {
        const err = await rejection(call);
        expect(err.code).toBe('QNA_NOT_FOUND');
        expect(err.details).toEqual({ qnaId });
      }
    }
    expect(await t.h.send(M.getQna, { projectId: otherProjectId, qnaId: theirs.id })).toEqual(theirs);
  });

  it('scores the same question as its entry close to 1, and finds an entry by the content of its answer', async () => {
    const hours = await create('What are your opening hours?', 'Nine to five on weekdays.');
    const parking = await create('Is there a car park?', 'Yes, 40 free spaces behind the store, with two charging points.');
    const same = await t.h.send(M.retrieve, { projectId, query: 'What are your opening hours?', qnaLimit: 5, chunkLimit: 0 });
    expect(same.qnas[0]).toMatchObject({ id: hours.id, answer: 'Nine to five on weekdays.' });
    expect(same.qnas[0]!.score).toBeGreaterThan(0.99);
    expect(same.qnas.filter((q) => q.id === hours.id)).toHaveLength(1);
    const byAnswer = await t.h.send(M.retrieve, { projectId, query: 'how many free spaces are there', qnaLimit: 1, chunkLimit: 0 });
    expect(byAnswer.qnas.map((q) => q.id)).toEqual([parking.id]);
  });

  it('is embedded for retrieval by paraphrase, and re-embedded or dropped with the entry', async () => {
    const qna = await create('What are your opening hours?', 'We are open from 9am to 7pm, Monday to Saturday.');
    await create('Do you sell gift cards?', 'Yes, from 10 to 500 EUR.');
    const found = await t.h.send(M.retrieve, { projectId, query: 'what time does the shop open', qnaLimit: 1, chunkLimit: 0 });
    expect(found.qnas.map((q) => q.id)).toEqual([qna.id]);

    await t.h.send(M.updateQna, {
      actor: ADMIN_TOKEN_ACTOR,
      projectId,
      qnaId: qna.id,
      patch: { question: 'Is parking available?', answer: 'Yes, free parking behind the store.' },
    });
    const afterUpdate = await t.h.send(M.retrieve, { projectId, query: 'where can I park my car', qnaLimit: 5, chunkLimit: 0 });
    expect(afterUpdate.qnas[0]).toMatchObject({ id: qna.id, question: 'Is parking available?' });

    await t.h.send(M.deleteQna, { actor: ADMIN_TOKEN_ACTOR, projectId, qnaId: qna.id });
    const afterDelete = await t.h.send(M.retrieve, { projectId, query: 'parking', qnaLimit: 5, chunkLimit: 0 });
    expect(afterDelete.qnas.map((q) => q.id)).not.toContain(qna.id);
  });
});

describe('search service: listing Q&A entries', () => {
  it('returns the list envelope, most recently updated first, paged with the total', async () => {
    const a = await create('First question?');
    const b = await create('Second question?');
    const c = await create('Third question?');
    await create('Not mine', 'x', otherProjectId);
    const page = await t.h.send(M.listQnas, { projectId, query: { limit: 2 } });
    expect(page).toEqual({ object: 'list', total: 3, limit: 2, offset: 0, data: [c, b] });
    expect((await t.h.send(M.listQnas, { projectId, query: { limit: 2, offset: 2 } })).data).toEqual([a]);
    expect((await t.h.send(M.listQnas, { projectId, query: { offset: null } })).limit).toBe(10);

    t.clock.advance(1000);
    const touched = await t.h.send(M.updateQna, { actor: ADMIN_TOKEN_ACTOR, projectId, qnaId: a.id, patch: { answer: 'Updated.' } });
    expect((await t.h.send(M.listQnas, { projectId, query: {} })).data.map((q) => q.id)).toEqual([touched.id, c.id, b.id]);
  });

  it('filters on the question: every query word must start a word, case-insensitively', async () => {
    await create('What does shipping cost?');
    await create('How long does shipping take?');
    await create('Can I return a gift?');
    await create('Do you have a relationship program?');
    expect(await listQuestions('ship')).toEqual(['How long does shipping take?', 'What does shipping cost?']);
    expect(await listQuestions('SHIPPING cost')).toEqual(['What does shipping cost?']);
    expect(await listQuestions('cost shipping')).toEqual(['What does shipping cost?']);
    expect(await listQuestions('ship?')).toHaveLength(2);
    // "ship" inside "relationship" is not at the start of a word.
    expect(await listQuestions('ship program')).toEqual([]);
    expect(await listQuestions('gift')).toEqual(['Can I return a gift?']);
    expect(await listQuestions('   ')).toHaveLength(4);
    expect(await listQuestions('')).toHaveLength(4);
    const filtered = await t.h.send(M.listQnas, { projectId, query: { query: 'shipping', limit: 1 } });
    expect(filtered.total).toBe(2);
    expect(filtered.data).toHaveLength(1);
  });

  it('matches regex metacharacters literally', async () => {
    await create('Is C++ supported?');
    await create('Is C supported?');
    await create('Price (in EUR) of the [pro] plan?');
    expect(await listQuestions('c++')).toEqual(['Is C++ supported?']);
    expect(await listQuestions('c')).toHaveLength(2);
    expect(await listQuestions('(in')).toEqual(['Price (in EUR) of the [pro] plan?']);
    expect(await listQuestions('[pro]')).toEqual(['Price (in EUR) of the [pro] plan?']);
    expect(await listQuestions('.*')).toEqual([]);
    expect(await listQuestions('a|b')).toEqual([]);
  });

  it('enforces the bounds of limit, offset and query', async () => {
    await create('Anything?');
    expect((await t.h.send(M.listQnas, { projectId, query: { limit: 1 } })).data).toHaveLength(1);
    expect((await t.h.send(M.listQnas, { projectId, query: { limit: 100 } })).limit).toBe(100);
    expect((await t.h.send(M.listQnas, { projectId, query: { query: 'a'.repeat(300) } })).data).toEqual([]);
    for (const query of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { query: 'a'.repeat(301) }, { limit: 1.5 }]) {
      const reply = await t.h.sendRaw(M.listQnas, { projectId, query });
      expect(reply.ok, JSON.stringify(query).slice(0, 60)).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('VALIDATION_ERROR');
    }
    for (const body of [
      { question: '', answer: 'x' },
      { question: 'x', answer: '' },
      { question: 'x'.repeat(2001), answer: 'x' },
    ]) {
      expect((await t.h.sendRaw(M.createQna, { actor: ADMIN_TOKEN_ACTOR, projectId, body })).ok).toBe(false);
    }
  });
});
