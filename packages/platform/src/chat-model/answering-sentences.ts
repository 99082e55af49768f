import type { RetrievedChunk } from '@palaver/contracts';
import { overlap, sentences } from './text-relevance';

/** A piece of a chunk's text: a sentence that states something, a question, or a heading line. */
interface Unit {
  text: string;
  kind: 'statement' | 'question' | 'heading';
  relevance: number;
}

const TERMINAL_PUNCTUATION = /[.!?:;…)"'”’]$/u;
const LIST_ITEM = /^(?:[-*•+]|\d+[.)])\s/u;
const HEADING_MAX_WORDS = 10;

/**
 * A line is a heading when it names the page or one of its sections, or when it is a short line
 * without closing punctuation followed by more text (how imported web pages write their headings).
 */
const isHeading = (line: string, isLast: boolean, named: ReadonlySet<string>): boolean => {
  if (named.has(line.toLowerCase())) return true;
  if (isLast || LIST_ITEM.test(line) || TERMINAL_PUNCTUATION.test(line)) return false;
  return line.split(/\s+/u).length <= HEADING_MAX_WORDS;
};

const units = (chunk: RetrievedChunk, asked: ReadonlySet<string>): Unit[] => {
  const named = new Set([chunk.title, ...(chunk.headings ?? [])].map((h) => h.trim().toLowerCase()));
  const lines = chunk.content
    .split(/\n+/u)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.flatMap((line, i): Unit[] =>
    isHeading(line, i === lines.length - 1, named)
      ? [{ text: line, kind: 'heading', relevance: 0 }]
      : sentences(line).map((text) => ({ text, kind: text.endsWith('?') ? 'question' : 'statement', relevance: overlap(asked, text) })),
  );
};

/**
 * The sentences of a chunk that answer the question, never a heading or a question of its own.
 * When one of the page's questions (an FAQ) matches at least as well as any statement, its answer
 * is the statements that follow it; otherwise the statements holding most of the question's
 * words, in their original order; its first statements when none does (the chunk matched by its
 * title).
 */
export const answeringSentences = (chunk: RetrievedChunk, asked: ReadonlySet<string>, maxSentences: number): string => {
  const all = units(chunk, asked);
  const statements = all.map((u, index) => ({ ...u, index })).filter((u) => u.kind === 'statement');
  if (statements.length === 0) return all.map((u) => u.text).join(' ');
  const bestStatement = Math.max(...statements.map((s) => s.relevance));
  const faq = all.reduce<number>((best, u, i) => (u.kind === 'question' && u.relevance > (all[best]?.relevance ?? 0) ? i : best), -1);
  if (faq >= 0 && all[faq]!.relevance >= bestStatement) {
    const answer: string[] = [];
    for (let i = faq + 1; i < all.length && all[i]!.kind === 'statement' && answer.length < maxSentences; i++) answer.push(all[i]!.text);
    if (answer.length > 0) return answer.join(' ');
  }
  const relevant = statements.filter((s) => s.relevance > 0);
  const chosen = relevant.length > 0 ? relevant.sort((a, b) => b.relevance - a.relevance || a.index - b.index) : statements;
  return chosen
    .slice(0, maxSentences)
    .sort((a, b) => a.index - b.index)
    .map((s) => s.text)
    .join(' ');
};
