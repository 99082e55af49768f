export interface VectorPoint {
  /** A uuid (Qdrant accepts uuids or integers). */
  id: string;
  vector: number[];
  payload: Record<string, unknown>;
}

export interface VectorHit {
  id: string;
  score: number;
  payload: Record<string, unknown>;
}

/** Equality on payload keys, all must match. */
export type PayloadFilter = Record<string, string | number | boolean>;

export interface VectorSearchOptions {
  limit: number;
  filter: PayloadFilter;
  /** Only these points (by id) are scored: re-ranking a known candidate set. */
  ids?: readonly string[];
}

/** Cosine-similarity index (Qdrant in distributed mode). */
export interface VectorIndex {
  ensureCollection(name: string, dimensions: number): Promise<void>;
  upsert(collection: string, points: VectorPoint[]): Promise<void>;
  deleteWhere(collection: string, filter: PayloadFilter): Promise<void>;
  search(collection: string, vector: number[], options: VectorSearchOptions): Promise<VectorHit[]>;
  /** Drops deleted points from disk where deleting them leaves them there (the embedded log); a no-op elsewhere. */
  compact(): Promise<void>;
  close(): Promise<void>;
}
