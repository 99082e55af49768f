import { join } from 'node:path';
import { JsonlLog } from '../storage/jsonl-log';
import type { PayloadFilter, VectorHit, VectorIndex, VectorPoint, VectorSearchOptions } from './vector-index.port';

const LOG_FILE = 'vectors.jsonl';
/** Compact on open once the log holds this many more point records than are live. */
const COMPACT_SLACK = 10_000;
const COMPACT_BATCH = 500;

type Op =
  | { op: 'collection'; name: string; dimensions: number }
  | { op: 'upsert'; collection: string; points: VectorPoint[] }
  | { op: 'delete'; collection: string; filter: PayloadFilter };

interface StoredPoint {
  /** Unit length (or all zeros for a zero vector); float32 like Qdrant, to halve the memory. */
  vector: Float32Array;
  payload: Record<string, unknown>;
}

/** The group of points whose payload `projectId` is not a scalar (missing, or an array): searched for every project. */
const NO_PROJECT = Symbol('no scalar projectId');
type GroupKey = string | number | boolean | typeof NO_PROJECT;

/** Where the index writes its changes: a JSONL log, or nowhere (`inMemory`). */
type ChangeLog = Pick<JsonlLog<Op>, 'append' | 'close' | 'rewrite'>;

/**
 * One collection's points, grouped by payload `projectId`: every search of the services filters
 * on it, so a search scans only that project's points, not those of every project.
 */
class Collection {
  private readonly groups = new Map<GroupKey, Map<string, StoredPoint>>();
  private readonly groupOf = new Map<string, GroupKey>();

  constructor(readonly dimensions: number) {}

  get size(): number {
    return this.groupOf.size;
  }

  set(id: string, point: StoredPoint): void {
    const key = groupKey(point.payload.projectId);
    const previous = this.groupOf.get(id);
    if (previous !== undefined && previous !== key) this.remove(previous, id);
    const group = this.groups.get(key) ?? new Map();
    this.groups.set(key, group);
    group.set(id, point);
    this.groupOf.set(id, key);
  }

  deleteWhere(filter: PayloadFilter): void {
    const doomed: string[] = [];
    this.forEachWhere(filter, (id) => doomed.push(id));
    for (const id of doomed) this.remove(this.groupOf.get(id)!, id);
  }

  /** Calls `visit` with each point matching `filter`. */
  forEachWhere(filter: PayloadFilter, visit: (id: string, point: StoredPoint) => void): void {
    const conditions = Object.entries(filter);
    for (const group of this.candidates(filter)) {
      for (const [id, point] of group) if (matches(point.payload, conditions)) visit(id, point);
    }
  }

  /** Calls `visit` with each of the points `ids` that exist and match `filter`: a lookup, not a scan. */
  forEachOf(ids: readonly string[], filter: PayloadFilter, visit: (id: string, point: StoredPoint) => void): void {
    const conditions = Object.entries(filter);
    for (const id of new Set(ids)) {
      const key = this.groupOf.get(id);
      const point = key === undefined ? undefined : this.groups.get(key)?.get(id);
      if (point && matches(point.payload, conditions)) visit(id, point);
    }
  }

  *entries(): Generator<[string, StoredPoint]> {
    for (const group of this.groups.values()) yield* group;
  }

  /** The groups that can hold points matching `filter`. */
  private candidates(filter: PayloadFilter): Array<Map<string, StoredPoint>> {
    if (!Object.hasOwn(filter, 'projectId')) return [...this.groups.values()];
    return [this.groups.get(filter.projectId!), this.groups.get(NO_PROJECT)].filter((group) => group !== undefined);
  }

  private remove(key: GroupKey, id: string): void {
    const group = this.groups.get(key)!;
    group.delete(id);
    if (group.size === 0) this.groups.delete(key);
    this.groupOf.delete(id);
  }
}

const groupKey = (projectId: unknown): GroupKey =>
  typeof projectId === 'string' || typeof projectId === 'number' || typeof projectId === 'boolean' ? projectId : NO_PROJECT;

/**
 * Embedded vector index: exact cosine search over the points of a collection that match the
 * filter, which is fine for a knowledge base of a few hundred thousand chunks. Every change is
 * appended to a JSONL log in `dir` and fsynced before the call returns; the log is replayed on
 * open, and compacted on open when it has grown far beyond the live data.
 */
export class EmbeddedVectorIndex implements VectorIndex {
  private closed = false;

  private constructor(
    private readonly collections: Map<string, Collection>,
    private readonly log: ChangeLog,
  ) {}

  /** An index that persists nothing: for benchmarks and tests that only search. */
  static inMemory(): EmbeddedVectorIndex {
    return new EmbeddedVectorIndex(new Map(), {
      append: async () => undefined,
      close: async () => undefined,
      rewrite: async () => undefined,
    });
  }

  static async open(dir: string): Promise<EmbeddedVectorIndex> {
    const { log, records } = await JsonlLog.open<Op>(join(dir, LOG_FILE));
    try {
      const collections = new Map<string, Collection>();
      let pointRecords = 0;
      for (const op of records) {
        apply(collections, op);
        if (op.op === 'upsert') pointRecords += op.points.length;
      }
      const live = [...collections.values()].reduce((n, c) => n + c.size, 0);
      if (pointRecords - live > COMPACT_SLACK) await log.rewrite(snapshot(collections));
      return new EmbeddedVectorIndex(collections, log);
    } catch (error) {
      await log.close();
      throw error;
    }
  }

  async ensureCollection(name: string, dimensions: number): Promise<void> {
    this.assertOpen();
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new Error(`vector collection "${name}": dimensions must be a positive integer, got ${dimensions}`);
    }
    const existing = this.collections.get(name);
    if (existing) {
      if (existing.dimensions !== dimensions) {
        throw new Error(
          `vector collection "${name}" has ${existing.dimensions} dimensions, asked for ${dimensions}: ` +
            'the embedder changed; re-index into a new collection',
        );
      }
      return;
    }
    await this.commit({ op: 'collection', name, dimensions });
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    this.assertOpen();
    const target = this.collections.get(collection);
    if (!target) throw new Error(`vector collection "${collection}" does not exist`);
    for (const point of points) {
      checkDimensions(collection, target.dimensions, point.vector.length, 'point');
      checkFinite(collection, point.vector);
    }
    if (points.length === 0) return;
    await this.commit({
      op: 'upsert',
      collection,
      points: points.map((p) => ({ id: p.id, vector: [...normalize(p.vector)], payload: copy(p.payload) })),
    });
  }

  async deleteWhere(collection: string, filter: PayloadFilter): Promise<void> {
    this.assertOpen();
    if (!this.collections.has(collection)) return;
    await this.commit({ op: 'delete', collection, filter: copy(filter) });
  }

  async search(collection: string, vector: number[], options: VectorSearchOptions): Promise<VectorHit[]> {
    const target = this.collections.get(collection);
    if (!target) return [];
    checkDimensions(collection, target.dimensions, vector.length, 'query');
    const query = sparseQuery(collection, vector);
    if (options.limit <= 0) return [];
    const hits: Array<{ id: string; score: number; point: StoredPoint }> = [];
    const visit = (id: string, point: StoredPoint): void => {
      hits.push({ id, score: dot(query, point.vector), point });
    };
    if (options.ids) target.forEachOf(options.ids, options.filter, visit);
    else target.forEachWhere(options.filter, visit);
    hits.sort((a, b) => b.score - a.score);
    // Payloads are frozen when stored, so a hit can share them: copying is what a search cost most.
    return hits.slice(0, options.limit).map((h) => ({ id: h.id, score: h.score, payload: h.point.payload }));
  }

  /** Rewrites the log with the live points only, so that no deleted point's payload stays on disk. */
  async compact(): Promise<void> {
    this.assertOpen();
    await this.log.rewrite(snapshot(this.collections));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.log.close();
  }

  /**
   * Applies `op` in memory at once, so the next call sees it, then logs it; the log keeps the
   * order of the calls, so a replay rebuilds the same state.
   */
  private commit(op: Op): Promise<void> {
    apply(this.collections, op);
    return this.log.append([op]);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('vector index is closed');
  }
}

const apply = (collections: Map<string, Collection>, op: Op): void => {
  switch (op.op) {
    case 'collection':
      if (!collections.has(op.name)) collections.set(op.name, new Collection(op.dimensions));
      return;
    case 'upsert': {
      const target = collections.get(op.collection);
      if (!target) return;
      for (const p of op.points) target.set(p.id, { vector: Float32Array.from(p.vector), payload: deepFreeze(p.payload) });
      return;
    }
    case 'delete':
      collections.get(op.collection)?.deleteWhere(op.filter);
      return;
    default: {
      const unknown: never = op;
      throw new Error(`unknown vector index op ${JSON.stringify(unknown)}`);
    }
  }
};

/** The live state as log records, produced lazily so a compaction holds one batch of plain vectors at a time. */
function* snapshot(collections: Map<string, Collection>): Generator<Op> {
  for (const [name, collection] of collections) {
    yield { op: 'collection', name, dimensions: collection.dimensions };
    let points: VectorPoint[] = [];
    for (const [id, point] of collection.entries()) {
      points.push({ id, vector: [...point.vector], payload: point.payload });
      if (points.length === COMPACT_BATCH) {
        yield { op: 'upsert', collection: name, points };
        points = [];
      }
    }
    if (points.length > 0) yield { op: 'upsert', collection: name, points };
  }
}

const checkDimensions = (collection: string, expected: number, actual: number, what: string): void => {
  if (actual !== expected) {
    throw new Error(`vector collection "${collection}" has ${expected} dimensions, the ${what} vector has ${actual}`);
  }
};

const nonFinite = (collection: string): Error => new Error(`vector collection "${collection}": vector has a non-finite component`);

const checkFinite = (collection: string, vector: number[]): void => {
  for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i])) throw nonFinite(collection);
};

const normalize = (vector: number[]): Float64Array => {
  const out = new Float64Array(vector);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i]! * out[i]!; // indexed: iterating a typed array is far slower
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
};

/** A query's non-zero components: a short query embedded by the local embedder has few of them. */
interface SparseVector {
  indexes: Uint32Array;
  values: Float64Array;
}

/**
 * The query's non-zero components, L2-normalized, in one pass over the dense vector (checking
 * that each is finite): a search of a project with few points spent most of its time on passes
 * over the query's 2,048 dimensions.
 */
const sparseQuery = (collection: string, vector: number[]): SparseVector => {
  const nonZero: number[] = [];
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i]!;
    // NaN and the infinities are not 0 either: checked here, a zero (most of them) costs one comparison.
    if (x !== 0) {
      if (!Number.isFinite(x)) throw nonFinite(collection);
      nonZero.push(i);
      sum += x * x;
    }
  }
  const norm = Math.sqrt(sum);
  const indexes = new Uint32Array(nonZero);
  const values = new Float64Array(indexes.length);
  for (let k = 0; k < indexes.length; k++) values[k] = vector[indexes[k]!]! / norm;
  return { indexes, values };
};

const dot = ({ indexes, values }: SparseVector, b: Float32Array): number => {
  let sum = 0;
  for (let k = 0; k < indexes.length; k++) sum += values[k]! * b[indexes[k]!]!;
  return sum;
};

/** Qdrant's `match` semantics: equal, or, for an array payload value, containing the value. */
const matches = (payload: Record<string, unknown>, conditions: Array<[string, PayloadFilter[string]]>): boolean => {
  for (const [key, expected] of conditions) {
    const actual = payload[key];
    if (Array.isArray(actual) ? !actual.includes(expected) : actual !== expected) return false;
  }
  return true;
};

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Freezes a JSON value and everything in it (a stored payload, shared with every hit). */
const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};
