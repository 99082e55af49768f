/** Text to vectors. Queries and documents may be embedded differently (asymmetric models). */
export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  embed(texts: string[], kind: 'query' | 'document'): Promise<number[][]>;
}
