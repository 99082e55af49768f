/** What is embedded for a chunk: the page title and the section headings give a short chunk its topic. */
export const chunkEmbeddingText = (title: string, headings: readonly string[], text: string): string =>
  [title, headings.join(' > '), text].filter((part) => part.length > 0).join('\n');

/** What is embedded for each point of a Q&A entry (see `QnaPayload`). */
export const qnaEmbeddingText = (field: 'question' | 'question-answer', question: string, answer: string): string =>
  field === 'question' ? question : `${question}\n${answer}`;

/** A document's default `path`: its URL's pathname ("/" for a bare origin). */
export const defaultPath = (url: string): string => {
  try {
    return new URL(url).pathname || '/';
  } catch {
    return '/';
  }
};
