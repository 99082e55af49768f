import type { InsightsSummary } from '@palaver/contracts';
import type { ConversationStats } from './conversation-stats';

export type SummaryInput = Pick<ConversationStats, 'messages' | 'handoffAt' | 'firstAgentReplyAt' | 'likes' | 'dislikes' | 'rating'>;

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** The summary of a set of conversations (those started in the queried range). */
export const summarize = (conversations: ReadonlyArray<SummaryInput>): InsightsSummary => {
  let messages = 0;
  let handedOff = 0;
  let likes = 0;
  let dislikes = 0;
  const ratings: number[] = [];
  const firstReplies: number[] = [];
  for (const c of conversations) {
    messages += c.messages;
    likes += c.likes;
    dislikes += c.dislikes;
    if (c.rating !== null) ratings.push(c.rating);
    if (c.handoffAt === null) continue;
    handedOff += 1;
    if (c.firstAgentReplyAt !== null) firstReplies.push(Math.max(0, Date.parse(c.firstAgentReplyAt) - Date.parse(c.handoffAt)));
  }
  return {
    conversations: conversations.length,
    messages,
    resolvedWithoutHuman: conversations.length - handedOff,
    handoffRate: ratio(handedOff, conversations.length),
    likeRate: ratio(likes, likes + dislikes),
    csat: { average: ratings.length === 0 ? null : ratings.reduce((a, b) => a + b, 0) / ratings.length, responses: ratings.length },
    medianFirstAgentReplyMs: median(firstReplies),
  };
};
