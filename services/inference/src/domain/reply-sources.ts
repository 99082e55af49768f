import type { ReplySource, Retrieval } from '@palaver/contracts';

/** The documents of the reply's grounding, each once (by URL, else title), in the grounding's order. */
export const groundingSources = (grounding: Retrieval): ReplySource[] => {
  const seen = new Set<string>();
  const sources: ReplySource[] = [];
  for (const { title, url } of grounding.chunks) {
    const key = url || title;
    if (seen.has(key)) continue;
    seen.add(key);
    sources.push({ title, url });
  }
  return sources;
};
