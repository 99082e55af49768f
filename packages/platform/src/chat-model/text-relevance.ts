/**
 * Plain lexical relevance, used by the local responder to pick the sentences of a retrieved
 * document that answer a question: content words (no stop words), lightly stemmed.
 */

const STOP_WORDS = new Set(
  (
    'a about above after again all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers him his ' +
    'how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out ' +
    'over own same she should so some such than that the their theirs them then there these they this those through ' +
    'to too under until up very was we were what when where which while who whom why will with would you your yours ' +
    'please tell know want like get let us may might must shall also'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** "opening" → "open", "hours" → "hour", "opened" → "open". */
export const stem = (word: string): string => {
  let w = word.toLowerCase().replace(/['’]s$/u, '');
  for (const suffix of ['ing', 'ed', 's']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
};

export const words = (text: string): string[] => [...text.matchAll(WORD)].map((m) => m[0].toLowerCase());

/** The distinct stems of the words that carry meaning. */
export const contentStems = (text: string): Set<string> =>
  new Set(
    words(text)
      .filter((w) => !STOP_WORDS.has(w))
      .map(stem),
  );

/** Sentences of a text, with their original spelling; line breaks end a sentence too. */
export const sentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** How many of the question's content stems the text contains. */
export const overlap = (question: ReadonlySet<string>, text: string): number => {
  let hits = 0;
  for (const s of contentStems(text)) if (question.has(s)) hits++;
  return hits;
};
