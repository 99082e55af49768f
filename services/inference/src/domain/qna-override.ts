import type { QnaOverrideSettings, Retrieval, RetrievedQna } from '@palaver/contracts';

/**
 * The Q&A entry whose answer is the reply, verbatim and without the model: the best retrieved
 * entry when the project's setting is on and the entry is at least `minScore` similar to the
 * question. Null otherwise (the model answers, with the entries in its prompt).
 */
export const overridingQna = (knowledge: Retrieval, settings: QnaOverrideSettings): RetrievedQna | null => {
  if (!settings.enabled) return null;
  let best: RetrievedQna | null = null;
  for (const qna of knowledge.qnas) if (best === null || qna.score > best.score) best = qna;
  return best !== null && best.score >= settings.minScore ? best : null;
};

/** Whether the reply had anything to draw on: analytics counts a reply without as unanswered. */
export const isGrounded = (knowledge: Retrieval): boolean => knowledge.qnas.length > 0 || knowledge.chunks.length > 0;
