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
import { RETRIEVAL_LIMITS } from '@palaver/contracts';
import { DEMO_DOCUMENTS, DEMO_QNAS } from '../packages/launcher/src/demo.content';
import { groundedAnswer } from '../packages/platform/src/chat-model/grounded-answer';
import { buildPrompt } from '../services/inference/src/domain/prompt.builder';
import { ANSWER_CASES, type AnswerCase } from './answers.questions';
import { formatTable, type Table } from './retrieval.bench';
import { newProjectId, startSearchServiceUnderTest } from './search-service';

interface Outcome {
  kase: AnswerCase;
  /** 'qna:<question>', 'document:<title>', or null for "I don't know" (and small talk). */
  answeredFrom: string | null;
  text: string;
}

const expectedKey = (from: AnswerCase['from']): string | null =>
  from === null ? null : 'qna' in from ? `qna:${from.qna}` : `document:${from.document}`;

export const answerOutcomes = async (): Promise<Outcome[]> => {
  const service = await startSearchServiceUnderTest();
  try {
    const projectId = newProjectId();
    for (const body of DEMO_QNAS) await service.qnas.create(projectId, body);
    for (const body of DEMO_DOCUMENTS) await service.documents.create(projectId, body);
    const outcomes: Outcome[] = [];
    for (const kase of ANSWER_CASES) {
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
      outcomes.push({ kase, answeredFrom, text: answer.text });
    }
    return outcomes;
  } finally {
    await service.close();
  }
};

export const runAnswersBench = async (): Promise<Table> => {
  const outcomes = await answerOutcomes();
  const answerable = outcomes.filter((o) => o.kase.from !== null);
  const unanswerable = outcomes.filter((o) => o.kase.from === null);
  const hits = answerable.filter((o) => o.answeredFrom === expectedKey(o.kase.from));
  const wrong = answerable.filter((o) => o.answeredFrom !== null && o.answeredFrom !== expectedKey(o.kase.from));
  const dontKnow = answerable.filter((o) => o.answeredFrom === null);
  const falseAnswers = unanswerable.filter((o) => o.answeredFrom !== null);
  const rate = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(0)}%)`;
  return {
    title: `Local responder on the demo content (${answerable.length} answerable paraphrases, ${unanswerable.length} unanswerable questions)`,
    columns: ['measure', 'value'],
    rows: [
      ['answer hit rate (right Q&A entry or document)', rate(hits.length, answerable.length)],
      ['answered from the wrong source', wrong.length],
      ['"I don\'t know" to an answerable question', dontKnow.length],
      ['false answers to unanswerable questions', rate(falseAnswers.length, unanswerable.length)],
    ],
    notes: [
      ...[...wrong, ...dontKnow].map((o) => `missed: "${o.kase.question}" -> ${o.answeredFrom ?? "I don't know"}`),
      ...falseAnswers.map((o) => `false answer: "${o.kase.question}" -> ${o.answeredFrom}`),
    ],
  };
};

export const printAnswersBench = async (): Promise<void> => {
  console.log(`${formatTable(await runAnswersBench())}\n`);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await printAnswersBench();
}
