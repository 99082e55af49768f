import { type Chunk, chunkDocument } from './chunker';

/** What is embedded for a chunk: the page title and the section headings give a short chunk its topic. */
export const chunkEmbeddingText = (title: string, headings: readonly string[], text: string): string =>
  [title, headings.join(' > '), text].filter((part) => part.length > 0).join('\n');

/** A document's chunks with what is embedded for each (and counted in the term statistics). */
export const documentChunks = (title: string, content: string): Array<{ chunk: Chunk; text: string }> =>
  chunkDocument(content).map((chunk) => ({ chunk, text: chunkEmbeddingText(title, chunk.headings, chunk.text) }));

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
