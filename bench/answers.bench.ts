/**
 * The local responder's answers over the demo content: the demo project created through the
 * search service, each question of answers.questions.ts retrieved as the inference service
 * does (SearchService.retrieve with its limits, then the prompt builder's knowledge), answered
 * by the local responder's grounded answer. Counts: hits (answered from the right Q&A entry or
 * document), wrong sources, "I don't know" to an answerable question, and false answers (an
 * answer to a question the content does not answer).
 * Run: `npx tsx bench/answers.bench.ts` (or `pnpm bench`).
 */
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN_ACTOR, DEFAULT_QNA_OVERRIDE_SETTINGS, RETRIEVAL_LIMITS } from '@palaver/contracts';
import { DEMO_DOCUMENTS, DEMO_QNAS } from '../packages/launcher/src/demo.content';
import { groundedAnswer } from '../packages/platform/src/chat-model/grounded-answer';
import { buildPrompt } from '../services/inference/src/domain/prompt.builder';
import { overridingQna } from '../services/inference/src/domain/qna-override';
import { BIKE_SHOP_CASES, BIKE_SHOP_DOCUMENTS } from '../test/support/bike-shop.content';
import { ANSWER_CASES, type AnswerCase } from './answers.questions';
import { formatTable, type Table } from './retrieval.bench';
import { newProjectId, startSearchServiceUnderTest } from './search-service';

interface Outcome {
  kase: AnswerCase;
  /** 'qna:<question>', 'document:<title>', or null for "I don't know" (and small talk). */
  answeredFrom: string | null;
  text: string;
  /** The best Q&A entry, 'qna:<question>', and its score: the Q&A override answers with it at or above its minScore. */
  bestQna: { key: string; score: number } | null;
}

const expectedKey = (from: AnswerCase['from']): string | null =>
  from === null ? null : 'qna' in from ? `qna:${from.qna}` : `document:${from.document}`;

interface AnswerSet {
  name: string;
  qnas: typeof DEMO_QNAS;
  documents: typeof DEMO_DOCUMENTS;
  cases: AnswerCase[];
}

const DEMO_SET: AnswerSet = { name: 'the demo content', qnas: DEMO_QNAS, documents: DEMO_DOCUMENTS, cases: ANSWER_CASES };

/** Held out from tuning: a bike shop's pages written as the HTML import writes them. */
const BIKE_SHOP_SET: AnswerSet = {
  name: "a bike shop's imported pages (held out)",
  qnas: [],
  documents: BIKE_SHOP_DOCUMENTS,
  cases: BIKE_SHOP_CASES.map(({ question, from }) => ({ question, from: from && { document: from.document } })),
};

export const answerOutcomes = async (set: AnswerSet = DEMO_SET): Promise<Outcome[]> => {
  const service = await startSearchServiceUnderTest();
  try {
    const projectId = newProjectId();
    for (const body of set.qnas) await service.qnas.create(projectId, body, ADMIN_TOKEN_ACTOR);
    for (const body of set.documents) await service.documents.create(projectId, body);
    const outcomes: Outcome[] = [];
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
      const answeredFrom =
        answer.source === 'qna' ? `qna:${qna?.question}` : answer.source === 'document' ? `document:${answer.documents[0]?.title}` : null;
      const best = overridingQna(knowledge, { enabled: true, minScore: 0 });
      outcomes.push({ kase, answeredFrom, text: answer.text, bestQna: best && { key: `qna:${best.question}`, score: best.score } });
    }
    return outcomes;
  } finally {
    await service.close();
  }
};

/** The project default, and a looser one. */
const OVERRIDE_SCORES = [DEFAULT_QNA_OVERRIDE_SETTINGS.minScore, 0.7];

export const runAnswersBench = async (set: AnswerSet = DEMO_SET): Promise<Table> => {
  const outcomes = await answerOutcomes(set);
  const answerable = outcomes.filter((o) => o.kase.from !== null);
  const unanswerable = outcomes.filter((o) => o.kase.from === null);
  const hits = answerable.filter((o) => o.answeredFrom === expectedKey(o.kase.from));
  const wrong = answerable.filter((o) => o.answeredFrom !== null && o.answeredFrom !== expectedKey(o.kase.from));
  const dontKnow = answerable.filter((o) => o.answeredFrom === null);
  const falseAnswers = unanswerable.filter((o) => o.answeredFrom !== null);
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
      ...[...wrong, ...dontKnow].map((o) => `missed: "${o.kase.question}" -> ${o.answeredFrom ?? "I don't know"}`),
      ...falseAnswers.map((o) => `false answer: "${o.kase.question}" -> ${o.answeredFrom}`),
    ],
  };
};

export const printAnswersBench = async (): Promise<void> => {
  for (const set of [DEMO_SET, BIKE_SHOP_SET]) console.log(`${formatTable(await runAnswersBench(set))}\n`);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await printAnswersBench();
}
