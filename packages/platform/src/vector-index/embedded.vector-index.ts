import { open as openFile, type FileHandle, mkdir, readFile, rename, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { PayloadFilter, VectorHit, VectorIndex, VectorPoint } from './vector-index.port';

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

interface Collection {
  dimensions: number;
  points: Map<string, StoredPoint>;
}

/**
 * Embedded vector index: exact cosine search over every point of a collection, which is fine for
 * a knowledge base of a few hundred thousand chunks. Every change is appended to a JSONL log in
 * `dir` and fsynced before the call returns; the log is replayed on open, tolerating a torn last
 * line (a crash mid-write), and compacted on open when it has grown far beyond the live data.
 */
export class EmbeddedVectorIndex implements VectorIndex {
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly collections: Map<string, Collection>,
    private readonly file: FileHandle,
  ) {}

  static async open(dir: string): Promise<EmbeddedVectorIndex> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, LOG_FILE);
    const collections = new Map<string, Collection>();
    const { validBytes, totalBytes, pointRecords } = await replay(path, collections);
    if (validBytes < totalBytes) await truncate(path, validBytes);
    const live = [...collections.values()].reduce((n, c) => n + c.points.size, 0);
    if (pointRecords - live > COMPACT_SLACK) await compact(dir, path, collections);
    return new EmbeddedVectorIndex(collections, await openFile(path, 'a'));
  }

  async ensureCollection(name: string, dimensions: number): Promise<void> {
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
    const op: Op = { op: 'collection', name, dimensions };
    apply(this.collections, op);
    await this.append(op);
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    const target = this.collections.get(collection);
    if (!target) throw new Error(`vector collection "${collection}" does not exist`);
    for (const point of points) {
      checkDimensions(collection, target.dimensions, point.vector.length, 'point');
      checkFinite(collection, point.vector);
    }
    if (points.length === 0) return;
    const op: Op = {
      op: 'upsert',
      collection,
      points: points.map((p) => ({ id: p.id, vector: [...normalize(p.vector)], payload: copy(p.payload) })),
    };
    apply(this.collections, op);
    await this.append(op);
  }

  async deleteWhere(collection: string, filter: PayloadFilter): Promise<void> {
    const target = this.collections.get(collection);
    if (!target) return;
    const op: Op = { op: 'delete', collection, filter: copy(filter) };
    apply(this.collections, op);
    await this.append(op);
  }

  async search(
    collection: string,
    vector: number[],
    options: { limit: number; filter: PayloadFilter },
  ): Promise<VectorHit[]> {
    const target = this.collections.get(collection);
    if (!target) return [];
    checkDimensions(collection, target.dimensions, vector.length, 'query');
    checkFinite(collection, vector);
    if (options.limit <= 0) return [];
    const query = normalize(vector);
    const hits: Array<{ id: string; score: number; point: StoredPoint }> = [];
    for (const [id, point] of target.points) {
      if (!matches(point.payload, options.filter)) continue;
      hits.push({ id, score: dot(query, point.vector), point });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, options.limit).map((h) => ({ id: h.id, score: h.score, payload: copy(h.point.payload) }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.file.close();
  }

  /** Appends one op and fsyncs it; appends are serialized so the log keeps the order of the calls. */
  private append(op: Op): Promise<void> {
    if (this.closed) return Promise.reject(new Error('vector index is closed'));
    const line = `${JSON.stringify(op)}\n`;
    const write = this.tail.then(async () => {
      await this.file.appendFile(line, 'utf8');
      await this.file.datasync();
    });
    this.tail = write.catch(() => undefined);
    return write;
  }
}

const replay = async (
  path: string,
  collections: Map<string, Collection>,
): Promise<{ validBytes: number; totalBytes: number; pointRecords: number }> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { validBytes: 0, totalBytes: 0, pointRecords: 0 };
    throw err;
  }
  const totalBytes = Buffer.byteLength(text, 'utf8');
  let validBytes = 0;
  let pointRecords = 0;
  let start = 0;
  let lineNumber = 0;
  while (start < text.length) {
    lineNumber += 1;
    const end = text.indexOf('\n', start);
    const last = end === -1;
    const line = text.slice(start, last ? text.length : end);
    let op: Op | undefined;
    try {
      op = JSON.parse(line) as Op;
    } catch {
      // Only the last line can be torn (a crash between write and fsync); anywhere else it is damage.
      const isLastLine = last || text.slice(end + 1).trim() === '';
      if (isLastLine) break;
      throw new Error(`vector index log ${path} is corrupt at line ${lineNumber}`);
    }
    if (last) {
      // A complete JSON value without its newline: keep it, and give it its newline back below.
      apply(collections, op);
      pointRecords += op.op === 'upsert' ? op.points.length : 0;
      validBytes = totalBytes;
      break;
    }
    apply(collections, op);
    pointRecords += op.op === 'upsert' ? op.points.length : 0;
    start = end + 1;
    validBytes += Buffer.byteLength(line, 'utf8') + 1;
  }
  if (validBytes === totalBytes && totalBytes > 0 && !text.endsWith('\n')) {
    const handle = await openFile(path, 'a');
    await handle.appendFile('\n');
    await handle.datasync();
    await handle.close();
    return { validBytes: totalBytes + 1, totalBytes: totalBytes + 1, pointRecords };
  }
  return { validBytes, totalBytes, pointRecords };
};

const apply = (collections: Map<string, Collection>, op: Op): void => {
  switch (op.op) {
    case 'collection':
      if (!collections.has(op.name)) collections.set(op.name, { dimensions: op.dimensions, points: new Map() });
      return;
    case 'upsert': {
      const target = collections.get(op.collection);
      if (!target) return;
      for (const p of op.points) target.points.set(p.id, { vector: Float32Array.from(p.vector), payload: p.payload });
      return;
    }
    case 'delete': {
      const target = collections.get(op.collection);
      if (!target) return;
      for (const [id, point] of target.points) if (matches(point.payload, op.filter)) target.points.delete(id);
      return;
    }
    default: {
      const unknown: never = op;
      throw new Error(`unknown vector index op ${JSON.stringify(unknown)}`);
    }
  }
};

/** Rewrites the log as the live state: written beside it, fsynced, then renamed over it. */
const compact = async (dir: string, path: string, collections: Map<string, Collection>): Promise<void> => {
  const tmp = `${path}.compact`;
  const handle = await openFile(tmp, 'w');
  try {
    for (const [name, collection] of collections) {
      await handle.appendFile(`${JSON.stringify({ op: 'collection', name, dimensions: collection.dimensions })}\n`);
      const entries = [...collection.points];
      for (let i = 0; i < entries.length; i += COMPACT_BATCH) {
        const points = entries
          .slice(i, i + COMPACT_BATCH)
          .map(([id, p]) => ({ id, vector: [...p.vector], payload: p.payload }));
        await handle.appendFile(`${JSON.stringify({ op: 'upsert', collection: name, points })}\n`);
      }
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  const dirHandle = await openFile(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
};

const checkDimensions = (collection: string, expected: number, actual: number, what: string): void => {
  if (actual !== expected) {
    throw new Error(`vector collection "${collection}" has ${expected} dimensions, the ${what} vector has ${actual}`);
  }
};

const checkFinite = (collection: string, vector: number[]): void => {
  if (!vector.every(Number.isFinite)) throw new Error(`vector collection "${collection}": vector has a non-finite component`);
};

const normalize = (vector: number[]): Float64Array => {
  const out = Float64Array.from(vector);
  let sum = 0;
  for (const x of out) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
};

const dot = (a: Float64Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** Qdrant's `match` semantics: equal, or, for an array payload value, containing the value. */
const matches = (payload: Record<string, unknown>, filter: PayloadFilter): boolean => {
  for (const [key, expected] of Object.entries(filter)) {
    const actual = payload[key];
    if (Array.isArray(actual) ? !actual.includes(expected) : actual !== expected) return false;
  }
  return true;
};

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
