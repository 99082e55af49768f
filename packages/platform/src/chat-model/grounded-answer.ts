import type { ReplySource, Retrieval, RetrievedChunk } from '@palaver/contracts';
import { contentStems, overlap, sentences, words } from './text-relevance';

export interface GroundedAnswerOptions {
  /** A Q&A entry at least this similar to the question is answered with verbatim. */
  qnaThreshold: number;
  /** Document chunks below this similarity are not used. */
  chunkThreshold: number;
  /** How many sentences of the document make the answer. */
  maxSentences: number;
}

/**
 * Retrieval scores are cosine similarities (1 = same meaning). Tuned on the local embedder: a
 * rephrased question scores 0.9+ against its Q&A entry, a different question on the same
 * subject 0.45-0.68 ("cancel my order" / "track my order"); a question scores 0.2-0.4 against a
 * chunk that answers it and under 0.11 against an unrelated one. The sentence check below
 * guards documents further.
 */
export const DEFAULT_GROUNDED_ANSWER_OPTIONS: GroundedAnswerOptions = {
  qnaThreshold: 0.7,
  chunkThreshold: 0.15,
  maxSentences: 2,
};

export const DONT_KNOW_ANSWER =
  "I'm sorry, I don't know the answer to that. Please contact our team, they will be glad to help you.";
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

  const fromDocument = documentAnswer(question, grounding.chunks, options);
  if (fromDocument) {
    const { title, url } = fromDocument.chunk;
    return { text: fromDocument.text, source: 'document', documents: [{ title, url }] };
  }

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
  if (ws.every((w) => THANKS_WORDS.has(w)) && ws.some((w) => w.startsWith('thank') || w === 'thx' || w === 'cheers'))
    return THANKS_ANSWER;
  return null;
};

/**
 * The most relevant sentences of the best matching chunk that shares words with the question,
 * in their original order, followed by the page as the source. Null when no chunk qualifies:
 * a chunk that is similar overall but says nothing about the question's words is not an answer.
 */
const documentAnswer = (
  question: string,
  chunks: readonly RetrievedChunk[],
  options: GroundedAnswerOptions,
): { text: string; chunk: RetrievedChunk } | null => {
  const asked = contentStems(question);
  if (asked.size === 0) return null;
  const candidates = chunks.filter((c) => c.score >= options.chunkThreshold).sort((a, b) => b.score - a.score);
  for (const chunk of candidates) {
    const ranked = sentences(chunk.content)
      .map((text, index) => ({ text, index, relevance: overlap(asked, text) }))
      .filter((s) => s.relevance > 0);
    if (ranked.length === 0) continue;
    const chosen = ranked
      .sort((a, b) => b.relevance - a.relevance || a.index - b.index)
      .slice(0, options.maxSentences)
      .sort((a, b) => a.index - b.index)
      .map((s) => s.text);
    return { text: `${chosen.join(' ')}\n\nSource: ${sourceOf(chunk)}`, chunk };
  }
  return null;
};

const sourceOf = (chunk: RetrievedChunk): string => {
  const title = chunk.title.trim();
  const url = chunk.url.trim();
  if (title && url) return `${title} (${url})`;
  return title || url || 'our documentation';
};
