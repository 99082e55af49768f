/**
 * The local responder's answers: the content created through the search service, each question
 * retrieved as the inference service does (SearchService.retrieve with its limits, then the prompt
 * builder's knowledge) and answered by the local responder's grounded answer. Counts hits (the
 * right Q&A entry or document), wrong sources, "I don't know" to an answerable question, and false
 * answers to questions the content does not answer.
 */
import { ADMIN_TOKEN_ACTOR, DEFAULT_QNA_OVERRIDE_SETTINGS, RETRIEVAL_LIMITS } from '@palaver/contracts';
import { DEMO_DOCUMENTS, DEMO_QNAS } from '../packages/launcher/src/demo.content';
import { groundedAnswer } from '../packages/platform/src/chat-model/grounded-answer';
import { buildPrompt } from '../services/inference/src/domain/prompt.builder';
import { overridingQna } from '../services/inference/src/domain/qna-override';
import { BIKE_SHOP_CASES, BIKE_SHOP_DOCUMENTS } from '../test/support/bike-shop.content';
import { ANSWER_CASES, type AnswerCase } from './answers.questions';
import type { Table } from './common';
import { startSearchServiceUnderTest } from './search-service';

interface AnswerSet {
  name: string;
  qnas: typeof DEMO_QNAS;
  documents: typeof DEMO_DOCUMENTS;
  cases: AnswerCase[];
}

const SETS: AnswerSet[] = [
  { name: 'the demo content', qnas: DEMO_QNAS, documents: DEMO_DOCUMENTS, cases: ANSWER_CASES },
  // Held out from tuning: a bike shop's pages written as the HTML import writes them.
  {
    name: "a bike shop's imported pages (held out)",
    qnas: [],
    documents: BIKE_SHOP_DOCUMENTS,
    cases: BIKE_SHOP_CASES.map(({ question, from }) => ({ question, from: from && { document: from.document } })),
  },
];

/** The best Q&A entry answers verbatim at or above a minScore: the project default, and a looser one. */
const OVERRIDE_SCORES = [DEFAULT_QNA_OVERRIDE_SETTINGS.minScore, 0.7];

/** 'qna:<question>', 'document:<title>', or null for "I don't know". */
const sourceKey = (from: AnswerCase['from']): string | null =>
  from === null ? null : 'qna' in from ? `qna:${from.qna}` : `document:${from.document}`;

/** Each question's expected source, the source it was answered from, and the Q&A entry that would override the model. */
const answeredFrom = async (set: AnswerSet) => {
  const service = await startSearchServiceUnderTest();
  try {
    const { projectId } = service;
    for (const body of set.qnas) await service.qnas.create(projectId, body, ADMIN_TOKEN_ACTOR);
    for (const body of set.documents) await service.documents.create(projectId, body);
    const outcomes = [];
    for (const { question, from } of set.cases) {
      const retrieval = await service.search.retrieve(projectId, question, RETRIEVAL_LIMITS.qnaLimit, RETRIEVAL_LIMITS.chunkLimit);
      const history = [{ role: 'user' as const, content: question }];
      const { knowledge } = buildPrompt({ instructions: '', pageContext: null, knowledge: retrieval, history });
      const answer = groundedAnswer(question, knowledge);
      const qna = knowledge.qnas.find((q) => q.answer === answer.text);
      const best = overridingQna(knowledge, { enabled: true, minScore: 0 });
      outcomes.push({
        question,
        expected: sourceKey(from),
        from:
          answer.source === 'qna' ? `qna:${qna?.question}` : answer.source === 'document' ? `document:${answer.documents[0]?.title}` : null,
        override: best && { key: `qna:${best.question}`, score: best.score },
      });
    }
    return outcomes;
  } finally {
    await service.close();
  }
};

const answersTable = async (set: AnswerSet): Promise<Table> => {
  const outcomes = await answeredFrom(set);
  const answerable = outcomes.filter((o) => o.expected !== null);
  const unanswerable = outcomes.filter((o) => o.expected === null);
  const hits = answerable.filter((o) => o.from === o.expected);
  const wrong = answerable.filter((o) => o.from !== null && o.from !== o.expected);
  const dontKnow = answerable.filter((o) => o.from === null);
  const falseAnswers = unanswerable.filter((o) => o.from !== null);
  const rate = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(0)}%)`;
  const overrides = OVERRIDE_SCORES.map((minScore) => {
    const overridden = outcomes.filter((o) => o.override !== null && o.override.score >= minScore);
    const right = overridden.filter((o) => o.override?.key === o.expected).length;
    return [
      `Q&A override at ${minScore}: answered verbatim, model not called (right entry)`,
      `${rate(overridden.length, outcomes.length)} (${right})`,
    ];
  });
  return {
    title: `Local responder on ${set.name} (${answerable.length} answerable paraphrases, ${unanswerable.length} unanswerable questions)`,
    columns: ['measure', 'value'],
    rows: [
      ['answer hit rate (right Q&A entry or document)', rate(hits.length, answerable.length)],
      ['answered from the wrong source', wrong.length],
      ['"I don\'t know" to an answerable question', dontKnow.length],
      ['false answers to unanswerable questions', rate(falseAnswers.length, unanswerable.length)],
      ...overrides,
    ],
    notes: [
      ...[...wrong, ...dontKnow].map((o) => `missed: "${o.question}" -> ${o.from ?? "I don't know"}`),
      ...falseAnswers.map((o) => `false answer: "${o.question}" -> ${o.from}`),
    ],
  };
};

export const answersBench = async (): Promise<Table[]> => {
  const tables = [];
  for (const set of SETS) tables.push(await answersTable(set));
  return tables;
};
