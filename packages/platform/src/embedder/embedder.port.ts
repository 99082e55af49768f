/** Text to vectors. Queries and documents may be embedded differently (asymmetric models). */
export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  embed(texts: string[], kind: 'query' | 'document'): Promise<number[][]>;
  /**
   * Set only by an embedder whose vectors are built from the terms of an analyzer (the local
   * one): the index then counts document frequencies and weights a query's terms by them. A
   * real embedding model leaves it unset and ranks on its own.
   */
  readonly termWeighting?: TermWeighting;
}

/**
 * Query-side term weighting from corpus statistics. Terms are counted in `buckets` hashed
 * buckets, so the statistics of a project have a bounded size whatever its vocabulary.
 */
export interface TermWeighting {
  /** Names the analyzer and the bucketing: statistics counted under another scheme do not apply. */
  readonly scheme: string;
  /** Bucket numbers run from 0 to `buckets` - 1. */
  readonly buckets: number;
  /** The buckets of the distinct terms of a text, each once (what a document frequency counts). */
  termBuckets(text: string): number[];
  /**
   * The query's vector with each term's features scaled by `weight(bucket of the term)` (only
   * the ratios between weights matter), L2-normalized: comparable by cosine with the document
   * vectors of `embed`, which stay unweighted.
   */
  embedWeightedQuery(text: string, weight: (bucket: number) => number): Promise<number[]>;
}
