/**
 * Document frequencies of a project's chunks, for weighting a query's terms (with an embedder
 * that offers term weighting). Terms are counted in hashed buckets (the embedder's); `df` maps a
 * bucket, written in decimal, to the number of live chunks holding a term of that bucket.
 */
export interface TermCounts {
  chunks: number;
  df: Record<string, number>;
}

/** What one version of a document adds: one entry of `chunkBuckets` per chunk, its distinct buckets. */
export const contributionOf = (chunkBuckets: readonly (readonly number[])[]): TermCounts => {
  const df: Record<string, number> = {};
  for (const buckets of chunkBuckets) {
    for (const bucket of new Set(buckets)) df[bucket] = (df[bucket] ?? 0) + 1;
  }
  return { chunks: chunkBuckets.length, df };
};

/** `to` minus `from` (either may be nothing), without the zeros. */
export const countsDelta = (from: TermCounts | null, to: TermCounts | null): TermCounts => {
  const df: Record<string, number> = {};
  for (const [bucket, n] of Object.entries(to?.df ?? {})) df[bucket] = n;
  for (const [bucket, n] of Object.entries(from?.df ?? {})) df[bucket] = (df[bucket] ?? 0) - n;
  for (const bucket of Object.keys(df)) if (df[bucket] === 0) delete df[bucket];
  return { chunks: (to?.chunks ?? 0) - (from?.chunks ?? 0), df };
};

export const sumCounts = (parts: Iterable<TermCounts>): TermCounts => {
  const total: TermCounts = { chunks: 0, df: {} };
  for (const part of parts) {
    total.chunks += part.chunks;
    for (const [bucket, n] of Object.entries(part.df)) total.df[bucket] = (total.df[bucket] ?? 0) + n;
  }
  for (const bucket of Object.keys(total.df)) if (total.df[bucket] === 0) delete total.df[bucket];
  return total;
};

/**
 * Lucene's BM25 idf over `chunks` chunks. A term the knowledge base lacks counts as seen once:
 * it cannot match a chunk anyway (only its character n-grams can, as for a typo), and weighing
 * it above the rarest known term would lower every score of a small knowledge base, whose
 * thresholds (the local responder's) were set on unweighted cosine.
 */
export const termIdf = (df: number, chunks: number): number => {
  if (chunks <= 0) return 1;
  const d = Math.min(Math.max(df, 1), Math.max(chunks, 1));
  return Math.log(1 + (chunks - d + 0.5) / (d + 0.5));
};

/** The weight of each bucket for a query against these counts. */
export const idfWeights =
  (counts: TermCounts): ((bucket: number) => number) =>
  (bucket) =>
    termIdf(counts.df[bucket] ?? 0, counts.chunks);

/** The shard of a project's counts that holds a document's contribution (FNV-1a of its id). */
export const statsShardOf = (documentId: string, shards: number): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < documentId.length; i++) {
    h ^= documentId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
};
