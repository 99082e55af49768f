import type { ChatMessage, PageContext, Retrieval, RetrievedChunk, RetrievedQna } from '@palaver/contracts';
import { countMessageTokens, countTokens, MESSAGE_OVERHEAD_TOKENS, truncateToTokens } from '@palaver/platform';

export interface PromptBudget {
  /** The whole prompt (system message and history), counted with the project tokenizer. */
  maxTokens: number;
  /** The page content and the selected text are each cut to this. */
  pageContentMaxTokens: number;
  /** Each Q&A answer and document chunk is cut to this. */
  knowledgeItemMaxTokens: number;
  /** The last message is never dropped; when nothing else is left to drop it is cut, but not below this. */
  minLastMessageTokens: number;
}

export const DEFAULT_PROMPT_BUDGET: PromptBudget = {
  maxTokens: 3_500,
  pageContentMaxTokens: 600,
  knowledgeItemMaxTokens: 400,
  minLastMessageTokens: 64,
};

export interface PromptInput {
  /** The assistant's own instructions (may be empty). */
  instructions: string;
  pageContext: PageContext | null;
  knowledge: Retrieval;
  /** Oldest first; the last message is the one being answered. */
  history: ChatMessage[];
  budget?: PromptBudget;
}

export interface BuiltPrompt {
  messages: ChatMessage[];
  tokens: number;
  /** The knowledge that made it into the prompt (the rest was dropped for the budget). */
  knowledge: Retrieval;
  droppedHistory: number;
  droppedKnowledge: number;
}

export const DEFAULT_INSTRUCTIONS = "You are a helpful assistant on this website. Answer the visitor's questions.";

export const RULES = [
  "Answer from the knowledge below and the page the visitor is on; don't invent facts, prices, links or policies.",
  "If the answer is not in the knowledge, say plainly that you don't know and suggest contacting the team.",
  'When you use a document, name its title or link.',
  "Be concise, and answer in the language of the visitor's message.",
];

type KnowledgeItem = { kind: 'qna'; item: RetrievedQna } | { kind: 'chunk'; item: RetrievedChunk };

/**
 * The prompt of one reply: a system message (instructions, rules, page context, knowledge) and
 * the history, within `budget.maxTokens`. Over budget, the oldest history goes first (the last
 * message stays), then the lowest-scored knowledge; if still over, the last message is cut.
 */
export const buildPrompt = (input: PromptInput): BuiltPrompt => {
  const budget = input.budget ?? DEFAULT_PROMPT_BUDGET;
  const knowledge: KnowledgeItem[] = [
    ...input.knowledge.qnas.map((item): KnowledgeItem => ({ kind: 'qna', item })),
    ...input.knowledge.chunks.map((item): KnowledgeItem => ({ kind: 'chunk', item })),
  ]
    .map((k) => cutKnowledge(k, budget.knowledgeItemMaxTokens))
    .sort((a, b) => b.item.score - a.item.score);
  let history = [...input.history];
  const initialHistory = history.length;
  const initialKnowledge = knowledge.length;

  // Each part is counted once (a long history was counted again for every message dropped).
  let systemText = '';
  let systemTokens = 0;
  const renderSystem = () => {
    systemText = systemMessage(input.instructions, input.pageContext, knowledge, budget);
    systemTokens = countTokens(systemText) + MESSAGE_OVERHEAD_TOKENS;
  };
  renderSystem();
  const historyTokens = history.map(countMessageTokens);
  let historyTotal = historyTokens.reduce((sum, tokens) => sum + tokens, 0);
  const total = () => systemTokens + historyTotal;

  let oldest = 0;
  while (total() > budget.maxTokens && history.length - oldest > 1) historyTotal -= historyTokens[oldest++]!;
  history = history.slice(oldest);
  while (total() > budget.maxTokens && knowledge.length > 0) {
    knowledge.pop();
    renderSystem();
  }

  const over = total() - budget.maxTokens;
  const last = history.at(-1);
  if (over > 0 && last) {
    const lastTokens = historyTokens.at(-1)!;
    const allowed = Math.max(budget.minLastMessageTokens, lastTokens - MESSAGE_OVERHEAD_TOKENS - over);
    const cut = { ...last, content: truncateToTokens(last.content, allowed) };
    historyTotal += countMessageTokens(cut) - lastTokens;
    history = [...history.slice(0, -1), cut];
  }

  const messages: ChatMessage[] = [{ role: 'system', content: systemText }, ...history];
  return {
    messages,
    tokens: total(),
    knowledge: {
      qnas: knowledge.flatMap((k) => (k.kind === 'qna' ? [k.item] : [])),
      chunks: knowledge.flatMap((k) => (k.kind === 'chunk' ? [k.item] : [])),
    },
    droppedHistory: initialHistory - history.length,
    droppedKnowledge: initialKnowledge - knowledge.length,
  };
};

const cutKnowledge = (k: KnowledgeItem, maxTokens: number): KnowledgeItem =>
  k.kind === 'qna'
    ? { kind: 'qna', item: { ...k.item, answer: truncateToTokens(k.item.answer, maxTokens) } }
    : { kind: 'chunk', item: { ...k.item, content: truncateToTokens(k.item.content, maxTokens) } };

const systemMessage = (
  instructions: string,
  page: PageContext | null,
  knowledge: readonly KnowledgeItem[],
  budget: PromptBudget,
): string => {
  const sections = [instructions.trim() || DEFAULT_INSTRUCTIONS, `Rules:\n${RULES.map((r) => `- ${r}`).join('\n')}`];
  const pageSection = pageContextSection(page, budget.pageContentMaxTokens);
  if (pageSection) sections.push(pageSection);
  sections.push(knowledgeSection(knowledge));
  return sections.join('\n\n');
};

const pageContextSection = (page: PageContext | null, maxTokens: number): string | null => {
  if (!page) return null;
  const lines: string[] = [];
  if (page.url?.trim()) lines.push(`URL: ${page.url.trim()}`);
  if (page.title?.trim()) lines.push(`Title: ${page.title.trim()}`);
  if (page.textSelection?.trim()) lines.push(`Text the visitor selected: "${truncateToTokens(page.textSelection.trim(), maxTokens)}"`);
  if (page.content?.trim()) lines.push(`Page content:\n${truncateToTokens(page.content.trim(), maxTokens)}`);
  return lines.length > 0 ? `The visitor is on this page:\n${lines.join('\n')}` : null;
};

const knowledgeSection = (knowledge: readonly KnowledgeItem[]): string => {
  if (knowledge.length === 0) return 'Knowledge: nothing relevant was found for this question.';
  const qnas = knowledge.flatMap((k) => (k.kind === 'qna' ? [k.item] : []));
  const chunks = knowledge.flatMap((k) => (k.kind === 'chunk' ? [k.item] : []));
  const parts = ['Knowledge:'];
  if (qnas.length > 0) {
    parts.push(`Questions and answers:\n${qnas.map((q) => `- Q: ${q.question}\n  A: ${q.answer}`).join('\n')}`);
  }
  if (chunks.length > 0) {
    parts.push(`Documents:\n${chunks.map((c) => `- ${sourceLine(c)}\n${indent(c.content)}`).join('\n')}`);
  }
  return parts.join('\n');
};

const sourceLine = (chunk: RetrievedChunk): string => {
  const title = chunk.title.trim() || 'Untitled';
  return chunk.url.trim() ? `${title} (${chunk.url.trim()})` : title;
};

const indent = (text: string): string =>
  text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
