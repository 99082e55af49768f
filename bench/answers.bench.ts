/**
 * The local responder's answers: the content created through the search service, each question
 * retrieved as the inference service does (SearchService.retrieve with its limits, then the prompt
 * builder's knowledge) and answered by the local responder's grounded answer. Counts hits (the
 * right Q&A entry or document), wrong sources, "I don't know" to an answerable question, and false
 * answers to questions the content does not answer.
 * Run: `npx tsx bench/answers.bench.ts` (or `pnpm bench`).
 */
import { ADMIN_TOKEN_ACTOR, DEFAULT_QNA_OVERRIDE_SETTINGS, RETRIEVAL_LIMITS } from '@palaver/contracts';
import { DEMO_DOCUMENTS, DEMO_QNAS } from '../packages/launcher/src/demo.content';
import { groundedAnswer } from '../packages/platform/src/chat-model/grounded-answer';
import { buildPrompt } from '../services/inference/src/domain/prompt.builder';
import { overridingQna } from '../services/inference/src/domain/qna-override';
import { BIKE_SHOP_CASES, BIKE_SHOP_DOCUMENTS } from '../test/support/bike-shop.content';
import { ANSWER_CASES, type AnswerCase } from './answers.questions';
import { formatTable, runIfMain, type Table } from './common';
import { newProjectId, startSearchServiceUnderTest } from './search-service';

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

/** 'qna:<question>', 'document:<title>', or null for "I don't know". */
const expectedKey = (from: AnswerCase['from']): string | null =>
  from === null ? null : 'qna' in from ? `qna:${from.qna}` : `document:${from.document}`;

const answeredFrom = async (set: AnswerSet) => {
  const service = await startSearchServiceUnderTest();
  try {
    const projectId = newProjectId();
    for (const body of set.qnas) await service.qnas.create(projectId, body, ADMIN_TOKEN_ACTOR);
    for (const body of set.documents) await service.documents.create(projectId, body);
    const outcomes: Array<{ kase: AnswerCase; from: string | null; bestQna: { key: string; score: number } | null }> = [];
    for (const kase of set.cases) {
      const retrieval = await service.search.retrieve(projectId, kase.question, RETRIEVAL_LIMITS.qnaLimit, RETRIEVAL_LIMITS.chunkLimit);
      const { knowledge } = buildPrompt({
        instructions: '',
        pageContext: null,
        knowledge: retrieval,
        history: [{ role: 'user', content: kase.question }],
      });
      const answer = groundedAnswer(kase.question, knowledge);
      const qna = answer.source === 'qna' ? knowledge.qnas.find((q) => q.answer === answer.text) : undefined;
      const best = overridingQna(knowledge, { enabled: true, minScore: 0 });
      outcomes.push({
        kase,
        bestQna: best && { key: `qna:${best.question}`, score: best.score },
        from:
          answer.source === 'qna' ? `qna:${qna?.question}` : answer.source === 'document' ? `document:${answer.documents[0]?.title}` : null,
      });
    }
    return outcomes;
  } finally {
    await service.close();
  }
};

/** The best Q&A entry answers verbatim at or above a minScore: the project default, and a looser one. */
const OVERRIDE_SCORES = [DEFAULT_QNA_OVERRIDE_SETTINGS.minScore, 0.7];

export const runAnswersBench = async (set: AnswerSet): Promise<Table> => {
  const outcomes = await answeredFrom(set);
  const answerable = outcomes.filter((o) => o.kase.from !== null);
  const unanswerable = outcomes.filter((o) => o.kase.from === null);
  const hits = answerable.filter((o) => o.from === expectedKey(o.kase.from));
  const wrong = answerable.filter((o) => o.from !== null && o.from !== expectedKey(o.kase.from));
  const dontKnow = answerable.filter((o) => o.from === null);
  const falseAnswers = unanswerable.filter((o) => o.from !== null);
  const rate = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(0)}%)`;
  return {
    title: `Local responder on ${set.name} (${answerable.length} answerable paraphrases, ${unanswerable.length} unanswerable questions)`,
    columns: ['measure', 'value'],
    rows: [
      ['answer hit rate (right Q&A entry or document)', rate(hits.length, answerable.length)],
      ['answered from the wrong source', wrong.length],
      ['"I don\'t know" to an answerable question', dontKnow.length],
      ['false answers to unanswerable questions', rate(falseAnswers.length, unanswerable.length)],
      ...OVERRIDE_SCORES.map((minScore) => {
        const overridden = outcomes.filter((o) => o.bestQna !== null && o.bestQna.score >= minScore);
        const right = overridden.filter((o) => o.bestQna?.key === expectedKey(o.kase.from)).length;
        return [
          `Q&A override at ${minScore}: answered verbatim, model not called (right entry)`,
          `${rate(overridden.length, outcomes.length)} (${right})`,
        ];
      }),
    ],
    notes: [
      ...[...wrong, ...dontKnow].map((o) => `missed: "${o.kase.question}" -> ${o.from ?? "I don't know"}`),
      ...falseAnswers.map((o) => `false answer: "${o.kase.question}" -> ${o.from}`),
    ],
  };
};

export const printAnswersBench = async (): Promise<void> => {
  for (const set of SETS) console.log(`${formatTable(await runAnswersBench(set))}\n`);
};

await runIfMain(import.meta.url, printAnswersBench);
