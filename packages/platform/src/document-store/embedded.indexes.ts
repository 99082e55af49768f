import { resolve } from 'mingo/util';
import { DuplicateKeyError, type IndexSpec } from './document-store.port';
import type { Change, Doc } from './embedded.doc';

export class UniqueIndex {
  readonly fields: string[];
  /** Key of the indexed values -> _id of the document holding them. */
  readonly entries = new Map<string, string>();

  constructor(keys: Record<string, 1 | -1>) {
    this.fields = Object.keys(keys);
  }

  /** Like MongoDB, a missing field is indexed as null (so two documents without it collide). */
  keyOf(doc: Doc): string {
    return JSON.stringify(this.fields.map((field) => resolve(doc, field) ?? null));
  }

  sameAs(keys: Record<string, 1 | -1>): boolean {
    return JSON.stringify(Object.keys(keys)) === JSON.stringify(this.fields);
  }
}

export type Scalar = string | number | boolean | null;
export const isScalar = (value: unknown): value is Scalar | undefined =>
  value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * Equality index on one top-level field: value -> ids of the documents holding it. A document
 * whose value is an array or object (which a query can match element-wise) is always a candidate.
 * It only narrows the documents a query is tested against; mingo still decides what matches.
 */
export class FieldIndex {
  /**
   * A value held by one document maps to its id alone, by several to a set of their ids: most
   * indexed fields (a sequence number, a timestamp) hold a value of their own in each document,
   * and a set for each of those cost an allocation per write and a few hundred bytes per document.
   */
  private readonly buckets = new Map<Scalar, string | Set<string>>();
  private readonly others = new Set<string>();

  constructor(readonly field: string) {}

  add(doc: Doc): void {
    const value = doc[this.field];
    if (!isScalar(value)) {
      this.others.add(doc._id);
      return;
    }
    const key = value ?? null;
    const bucket = this.buckets.get(key);
    if (bucket === undefined) this.buckets.set(key, doc._id);
    else if (typeof bucket !== 'string') bucket.add(doc._id);
    else if (bucket !== doc._id) this.buckets.set(key, new Set([bucket, doc._id]));
  }

  remove(doc: Doc): void {
    const value = doc[this.field];
    if (!isScalar(value)) {
      this.others.delete(doc._id);
      return;
    }
    const key = value ?? null;
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return;
    if (typeof bucket === 'string') {
      if (bucket === doc._id) this.buckets.delete(key);
    } else if (bucket.delete(doc._id) && bucket.size === 1) {
      this.buckets.set(key, bucket.values().next().value!);
    }
  }

  /**
   * A write's change to one document (`before` null: inserted; `after` null: deleted; both: the
   * same `_id` updated). An update leaves the index alone when this field kept its value: a
   * project's bucket holds every document of the project.
   */
  change(before: Doc | null, after: Doc | null): void {
    if (before && after) {
      const old = before[this.field];
      const now = after[this.field];
      if (isScalar(old) ? isScalar(now) && (old ?? null) === (now ?? null) : !isScalar(now)) return;
    }
    if (before) this.remove(before);
    if (after) this.add(after);
  }

  /** How many documents may equal `value`, without listing them. */
  count(value: Scalar): number {
    const bucket = this.buckets.get(value);
    return (bucket === undefined ? 0 : typeof bucket === 'string' ? 1 : bucket.size) + this.others.size;
  }

  /** Ids of the documents that may equal `value` (unordered). */
  candidates(value: Scalar): string[] {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) return [...this.others];
    return typeof bucket === 'string' ? [bucket, ...this.others] : [...bucket, ...this.others];
  }
}

/** A collection's indexes: equality indexes on top-level fields, and the unique indexes. */
export class CollectionIndexes {
  private readonly unique: UniqueIndex[] = [];
  private readonly fields = new Map<string, FieldIndex>();

  /** Builds the index over the documents held; a unique one they already break throws DuplicateKeyError. */
  ensure(collection: string, spec: IndexSpec, docs: Map<string, Doc>): void {
    for (const field of Object.keys(spec.keys)) {
      if (field.includes('.') || this.fields.has(field)) continue;
      const index = new FieldIndex(field);
      for (const doc of docs.values()) index.add(doc);
      this.fields.set(field, index);
    }
    if (!spec.unique || this.unique.some((index) => index.sameAs(spec.keys))) return;
    const index = new UniqueIndex(spec.keys);
    for (const doc of docs.values()) {
      const key = index.keyOf(doc);
      if (index.entries.has(key)) throw new DuplicateKeyError(collection, index.fields);
      index.entries.set(key, doc._id);
    }
    this.unique.push(index);
  }

  /** The equality index on a top-level field, if there is one. */
  field(name: string): FieldIndex | undefined {
    return this.fields.get(name);
  }

  /** Brings the equality indexes up to date with one document's change. */
  change(before: Doc | null, after: Doc | null): void {
    for (const index of this.fields.values()) index.change(before, after);
  }

  /** Throws DuplicateKeyError if the changes would break a unique index; else returns how to update the unique indexes. */
  check(collection: string, changes: Change[]): () => void {
    const updates: Array<() => void> = [];
    for (const index of this.unique) {
      // What the index would hold after the changes, on top of what it holds now.
      const overlay = new Map<string, string | null>();
      const holder = (key: string) => (overlay.has(key) ? overlay.get(key)! : (index.entries.get(key) ?? null));
      for (const { before } of changes) {
        if (!before) continue;
        const key = index.keyOf(before);
        if (holder(key) === before._id) overlay.set(key, null);
      }
      for (const { after } of changes) {
        if (!after) continue;
        const key = index.keyOf(after);
        const current = holder(key);
        if (current !== null && current !== after._id) throw new DuplicateKeyError(collection, index.fields);
        overlay.set(key, after._id);
      }
      updates.push(() => {
        for (const [key, id] of overlay) {
          if (id === null) index.entries.delete(key);
          else index.entries.set(key, id);
        }
      });
    }
    return () => {
      for (const apply of updates) apply();
    };
  }
}
