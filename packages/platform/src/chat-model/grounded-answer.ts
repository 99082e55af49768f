import type { ReplySource, Retrieval, RetrievedChunk } from '@palaver/contracts';
import { answeringSentences } from './answering-sentences';
import { contentStems, questionStems, words } from './text-relevance';

export interface GroundedAnswerOptions {
  /** A Q&A entry at least this similar to the question is answered with verbatim. */
  qnaThreshold: number;
  /** Document chunks below this similarity are not used. */
  chunkThreshold: number;
  /** How many sentences of the document make the answer. */
  maxSentences: number;
  /** The share of the question's words a passage must hold to answer it. */
  minCoverage: number;
}

/**
 * Retrieval scores are cosine similarities (1 = same meaning). Tuned on the local embedder: a
 * rephrased question scores 0.9+ against its Q&A entry, a different question on the same
 * subject 0.45-0.68 ("cancel my order" / "track my order"); a question scores 0.1-0.4 against a
 * chunk that answers it (the low end when it also names a product, whose rarer words weigh
 * more) and under 0.05 against an unrelated one. The coverage check below
 * guards every other answer: half the question's words must be in the passage (measured on the
 * question set of bench/answers.questions.ts).
 */
export const DEFAULT_GROUNDED_ANSWER_OPTIONS: GroundedAnswerOptions = {
  qnaThreshold: 0.7,
  chunkThreshold: 0.08,
  maxSentences: 2,
  minCoverage: 0.5,
};

export const DONT_KNOW_ANSWER = "I'm sorry, I don't know the answer to that. Please contact our team, they will be glad to help you.";
export const GREETING_ANSWER = 'Hello! How can I help you today?';
export const THANKS_ANSWER = "You're welcome! Is there anything else I can help you with?";

const GREETING_WORDS = new Set(['hi', 'hello', 'hey', 'good', 'morning', 'afternoon', 'evening', 'there', 'hiya']);
const THANKS_WORDS = new Set(['thanks', 'thank', 'you', 'thx', 'cheers', 'great', 'ok', 'okay', 'very', 'much', 'a', 'lot']);

export type AnswerSource = 'qna' | 'document' | 'small-talk' | 'unknown';

/** What the local responder says to `question`, from the retrieved knowledge only. */
export const groundedAnswer = (
  question: string,
  grounding: Retrieval,
  options: GroundedAnswerOptions = DEFAULT_GROUNDED_ANSWER_OPTIONS,
): GroundedAnswer => {
  const smallTalk = smallTalkAnswer(question);
  if (smallTalk) return { text: smallTalk, source: 'small-talk', documents: [] };

  const bestQna = [...grounding.qnas].sort((a, b) => b.score - a.score)[0];
  if (bestQna && bestQna.score >= options.qnaThreshold) return { text: bestQna.answer, source: 'qna', documents: [] };

  const fromPassage = passageAnswer(question, grounding, options);
  if (fromPassage?.chunk) {
    const { title, url } = fromPassage.chunk;
    return { text: fromPassage.text, source: 'document', documents: [{ title, url }] };
  }
  if (fromPassage) return { text: fromPassage.text, source: 'qna', documents: [] };

  return { text: DONT_KNOW_ANSWER, source: 'unknown', documents: [] };
};

export interface GroundedAnswer {
  text: string;
  source: AnswerSource;
  /** The documents the answer quotes (its citations). */
  documents: ReplySource[];
}

const smallTalkAnswer = (question: string): string | null => {
  const ws = words(question);
  if (ws.length === 0) return null;
  if (ws.every((w) => GREETING_WORDS.has(w))) return GREETING_ANSWER;
  if (ws.every((w) => THANKS_WORDS.has(w)) && ws.some((w) => w.startsWith('thank') || w === 'thx' || w === 'cheers')) return THANKS_ANSWER;
  return null;
};

/** A retrieved passage that may answer: a Q&A entry (answered verbatim) or a document chunk. */
type Passage =
  | { kind: 'qna'; answer: string; about: Set<string>; body: Set<string>; score: number; product: false }
  | { kind: 'chunk'; chunk: RetrievedChunk; about: Set<string>; body: Set<string>; score: number; product: boolean };

/**
 * The passage that holds most of the question's words (its title and headings count: a page
 * titled "Payment" is about paying; a Q&A entry's question counts), if it holds at least `minCoverage` of them; ties go to the
 * better retrieval score. A question that names a product (the title words of a retrieved
 * product page) asks about it: the product's page must hold all the question's words, any other
 * page only the rest ("the warranty of the Aurora X2" is on the warranty page).
 */
const passageAnswer = (
  question: string,
  grounding: Retrieval,
  options: GroundedAnswerOptions,
): { text: string; chunk: RetrievedChunk | null } | null => {
  const asked = questionStems(question);
  if (asked.size === 0) return null;
  const passages: Passage[] = [
    ...grounding.qnas.map(
      (q): Passage => ({
        kind: 'qna',
        answer: q.answer,
        about: contentStems(q.question),
        body: contentStems(q.answer),
        score: q.score,
        product: false,
      }),
    ),
    ...grounding.chunks
      .filter((c) => c.score >= options.chunkThreshold)
      .map(
        (c): Passage => ({
          kind: 'chunk',
          chunk: c,
          about: contentStems([c.title, ...(c.headings ?? [])].join('\n')),
          body: contentStems(c.content),
          score: c.score,
          product: c.productId !== undefined,
        }),
      ),
  ];
  const named = new Set(
    passages.flatMap((p) => (p.product && [...p.about].some((t) => asked.has(t)) ? [...p.about].filter((t) => asked.has(t)) : [])),
  );
  const focus = new Set([...asked].filter((t) => !named.has(t)));
  const coverage = (p: Passage): number => {
    const wanted = p.product || focus.size === 0 ? asked : focus;
    let held = 0;
    let subjects = 0;
    let subjectsHeld = 0;
    for (const t of wanted) {
      const has = p.about.has(t) || p.body.has(t);
      if (has) held++;
      if (!TRADE_TERMS.has(t)) {
        subjects++;
        if (has) subjectsHeld++;
      }
    }
    // "Do you sell skateboards?" is about skateboards: a page that shares only the verb is about something else.
    if (subjects > 0 && subjectsHeld === 0) return 0;
    return held / wanted.size;
  };
  const best = passages
    .map((p, rank) => ({ p, rank, coverage: coverage(p) }))
    .filter((c) => c.coverage >= options.minCoverage)
    .sort((a, b) => b.coverage - a.coverage || b.p.score - a.p.score || a.rank - b.rank)[0];
  if (!best) return null;
  const { p } = best;
  if (p.kind === 'qna') return { text: p.answer, chunk: null };
  // The page is cited once, in the reply's sources (its metadata), not again in the text.
  return { text: answeringSentences(p.chunk, focus.size > 0 ? focus : asked, options.maxSentences), chunk: p.chunk };
};

/**
 * The verbs of trade: what a shop does, not what a question is about. A passage that holds only
 * these of a question's terms shares its verb, not its subject.
 */
const TRADE_TERMS: ReadonlySet<string> = contentStems(
  'sell sells sold selling ship buy offer offers offered provide provides carry carries stock',
);
