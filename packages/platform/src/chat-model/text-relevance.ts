import { analyzeText } from '../embedder/local.embedder';

/**
 * Lexical relevance for the local responder, picking the sentences of a retrieved document
 * that answer a question. It reads words exactly as the local embedder does (stop words,
 * stemming, synonyms), so a sentence about a "warranty" answers a question about a "guarantee".
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** The words of a text, lowercase, as written (for small talk). */
export const words = (text: string): string[] => [...text.matchAll(WORD)].map((m) => m[0].toLowerCase());

/** The distinct terms of the words that carry meaning. */
export const contentStems = (text: string): Set<string> => new Set(analyzeText(text).map(({ term }) => term));

/**
 * The terms a question asks about: its content terms, without the word that makes "how long", "how fast",
 * "how much", "how many"... a question of quantity (an answer gives a number, not that word).
 */
export const questionStems = (question: string): Set<string> =>
  contentStems(question.replace(/\bhow\s+(?:long|much|many|often|far|soon|big|old|fast|quick(?:ly)?)\b/giu, ' '));

/** Sentences of a text, with their original spelling; line breaks end a sentence too. */
export const sentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** How many of the question's terms the text contains. */
export const overlap = (question: ReadonlySet<string>, text: string): number => {
  let hits = 0;
  for (const term of contentStems(text)) if (question.has(term)) hits++;
  return hits;
};
