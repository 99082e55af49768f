import { QdrantClient } from '@qdrant/js-client-rest';
import type { PayloadFilter, VectorHit, VectorIndex, VectorPoint, VectorSearchOptions } from './vector-index.port';

const QDRANT_TIMEOUT_MS = 10_000;

/** Payload keys the services filter on; each gets a keyword index when a collection is ensured. */
export const INDEXED_PAYLOAD_KEYS = ['projectId', 'documentId', 'qnaId', 'kind', 'version'] as const;

const UPSERT_BATCH = 256;

/** Qdrant with cosine distance (Qdrant normalizes the vectors). Every write waits until applied. */
export class QdrantVectorIndex implements VectorIndex {
  private readonly client: QdrantClient;
  /** Dimensions of collections seen, so a wrong vector fails with a clear message before the call. */
  private readonly dimensions = new Map<string, number>();

  constructor(url: string, apiKey?: string) {
    this.client = new QdrantClient({
      url,
      ...(apiKey ? { apiKey } : {}),
      checkCompatibility: false,
      // A request to an unreachable or stuck server fails after this instead of hanging.
      timeout: QDRANT_TIMEOUT_MS,
    });
  }

  async ensureCollection(name: string, dimensions: number): Promise<void> {
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new Error(`vector collection "${name}": dimensions must be a positive integer, got ${dimensions}`);
    }
    let existing = await this.fetchDimensions(name);
    if (existing === undefined) {
      try {
        await qdrant(`create collection "${name}"`, () =>
          this.client.createCollection(name, { vectors: { size: dimensions, distance: 'Cosine' } }),
        );
      } catch (err) {
        // Another instance may have created it meanwhile: then it exists now and is checked below.
        existing = await this.fetchDimensions(name);
        if (existing === undefined) throw err;
      }
    }
    if (existing !== undefined && existing !== dimensions) {
      throw new Error(
        `vector collection "${name}" has ${existing} dimensions, asked for ${dimensions}: ` +
          'the embedder changed; re-index into a new collection',
      );
    }
    this.dimensions.set(name, dimensions);
    for (const field of INDEXED_PAYLOAD_KEYS) {
      await qdrant(`index "${field}" of "${name}"`, () =>
        this.client.createPayloadIndex(name, { field_name: field, field_schema: 'keyword', wait: true }),
      );
    }
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    const dimensions = await this.dimensionsOf(collection);
    if (dimensions === undefined) throw new Error(`vector collection "${collection}" does not exist`);
    for (const point of points) checkDimensions(collection, dimensions, point.vector.length, 'point');
    for (let i = 0; i < points.length; i += UPSERT_BATCH) {
      const batch = points.slice(i, i + UPSERT_BATCH).map((p) => ({ id: p.id, vector: p.vector, payload: p.payload }));
      await qdrant(`upsert into "${collection}"`, () => this.client.upsert(collection, { wait: true, points: batch }));
    }
  }

  async deleteWhere(collection: string, filter: PayloadFilter): Promise<void> {
    try {
      await this.client.delete(collection, { wait: true, filter: toFilter(filter) });
    } catch (err) {
      if (statusOf(err) === 404) return;
      throw qdrantError(`delete from "${collection}"`, err);
    }
  }

  async search(collection: string, vector: number[], options: VectorSearchOptions): Promise<VectorHit[]> {
    const dimensions = await this.dimensionsOf(collection);
    if (dimensions === undefined) return [];
    checkDimensions(collection, dimensions, vector.length, 'query');
    if (options.limit <= 0) return [];
    let response;
    try {
      response = await this.client.query(collection, {
        query: vector,
        limit: options.limit,
        filter: toFilter(options.filter, options.ids),
        with_payload: true,
      });
    } catch (err) {
      if (statusOf(err) === 404) {
        this.dimensions.delete(collection);
        return [];
      }
      throw qdrantError(`search "${collection}"`, err);
    }
    return response.points.map((p) => ({
      id: String(p.id),
      score: p.score,
      payload: (p.payload ?? {}) as Record<string, unknown>,
    }));
  }

  /** Qdrant deletes points itself. */
  async compact(): Promise<void> {}

  async close(): Promise<void> {}

  private async dimensionsOf(collection: string): Promise<number | undefined> {
    const known = this.dimensions.get(collection);
    if (known !== undefined) return known;
    const fetched = await this.fetchDimensions(collection);
    if (fetched !== undefined) this.dimensions.set(collection, fetched);
    return fetched;
  }

  private async fetchDimensions(collection: string): Promise<number | undefined> {
    let info;
    try {
      info = await this.client.getCollection(collection);
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw qdrantError(`read collection "${collection}"`, err);
    }
    const vectors = info.config.params.vectors;
    if (vectors && typeof (vectors as { size?: unknown }).size === 'number') return (vectors as { size: number }).size;
    throw new Error(`vector collection "${collection}" uses named vectors, which this index does not support`);
  }
}

const toFilter = (filter: PayloadFilter, ids?: readonly string[]) => ({
  must: [...Object.entries(filter).map(([key, value]) => ({ key, match: { value } })), ...(ids ? [{ has_id: [...ids] }] : [])],
});

const checkDimensions = (collection: string, expected: number, actual: number, what: string): void => {
  if (actual !== expected) {
    throw new Error(`vector collection "${collection}" has ${expected} dimensions, the ${what} vector has ${actual}`);
  }
};

const statusOf = (err: unknown): number | undefined =>
  typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number'
    ? (err as { status: number }).status
    : undefined;

/** Qdrant's errors carry the reason in the response body, not in the message: bring it up. */
const qdrantError = (action: string, err: unknown): Error => {
  const data = (err as { data?: { status?: { error?: unknown } } }).data;
  const reason = data?.status?.error ?? (err instanceof Error ? err.message : String(err));
  return new Error(`qdrant: ${action} failed: ${String(reason)}`, { cause: err });
};

const qdrant = async <T>(action: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (err) {
    throw qdrantError(action, err);
  }
};
