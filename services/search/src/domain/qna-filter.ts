/**
 * The Q&A list's full-text filter on the question, in MongoDB's query language: every word of the
 * query must start a word of the question (case-insensitive), so "ship cost" finds "What does
 * shipping cost?". Words are matched literally: regex metacharacters are escaped.
 */
export const qnaQuestionFilter = (query: string | undefined): Record<string, unknown> => {
  const terms = queryTerms(query);
  if (terms.length === 0) return {};
  return { $and: terms.map((term) => ({ question: { $regex: `(?:^|\\W)${escapeRegex(term)}`, $options: 'i' } })) };
};

/**
 * The query's words, split on whitespace, without the sentence punctuation, quotes and brackets
 * around them ("hours?" -> "hours", "(in" -> "in"); other symbols stay ("c++").
 */
export const queryTerms = (query: string | undefined): string[] =>
  (query ?? '')
    .split(/\s+/)
    .map((w) => w.replace(/^["'«“‘([{¿¡]+|[?!.,;:"'»”’)\]}]+$/gu, ''))
    .filter((w) => w.length > 0);

export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
