import { Query } from 'mingo';
import type { Filter, Sort } from './document-store.port';
import type { Doc } from './embedded.doc';

// Mongo queries cannot run code, and neither should ours.
const QUERY_OPTIONS = { scriptEnabled: false };
/** Compiled queries kept per collection (building a mingo Query copies its operator tables). */
const QUERY_CACHE_SIZE = 500;

export const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length > 0 &&
  Object.keys(value).every((key) => key.startsWith('$'));

/** The value of a top-level equality condition the indexes can serve (`field: v` or `field: {$eq: v}`), if any. */
export const equalityOf = (condition: unknown): { value: string | number | boolean } | null => {
  const value = isOperatorObject(condition) && Object.keys(condition).length === 1 && '$eq' in condition ? condition.$eq : condition;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? { value } : null;
};

export interface Matcher {
  test(doc: Doc): boolean;
}

/**
 * The matcher of a filter made only of top-level equalities to a string, number or boolean
 * (`field: v`, `field: {$eq: v}`) and `_id: {$in: [...]}`, the filters nearly every read uses;
 * null for any other filter. A document whose field holds an array or object (which MongoDB
 * matches element-wise) is left to the full query, so the answer is always mingo's.
 */
export const equalityMatcher = (filter: Filter, full: () => Matcher): Matcher | null => {
  const equal: Array<[string, string | number | boolean]> = [];
  let ids: Set<string> | null = null;
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return null;
    const equality = equalityOf(condition);
    if (equality) equal.push([field, equality.value]);
    else if (field === '_id' && isOperatorObject(condition) && Object.keys(condition).length === 1 && Array.isArray(condition.$in)) {
      if (!condition.$in.every((v) => typeof v === 'string')) return null;
      ids = new Set(condition.$in as string[]);
    } else return null;
  }
  return {
    test: (doc) => {
      if (ids && !ids.has(doc._id)) return false;
      for (const [field, want] of equal) {
        const value = doc[field];
        if (value === want) continue;
        if (typeof value === 'object' && value !== null) return full().test(doc);
        return false;
      }
      return true;
    },
  };
};

/**
 * `docs` in `sort` order. Fields holding only strings or only numbers are compared directly (as
 * mingo does: strings by UTF-16 code unit); other values (mixed types, missing fields, arrays) are sorted by
 * mingo with MongoDB's ordering across types. Ties keep their natural order.
 */
export const sortDocuments = (docs: Doc[], sort: Sort): Doc[] => {
  const fields = Object.entries(sort);
  const direct = fields.every(([field]) => {
    if (field.includes('.')) return false;
    const type = typeof docs[0]?.[field];
    return (type === 'string' || type === 'number') && docs.every((doc) => typeof doc[field] === type);
  });
  if (!direct) return new Query({}, QUERY_OPTIONS).find<Doc>(docs).sort(sort).all();
  return [...docs].sort((a, b) => {
    for (const [field, dir] of fields) {
      const x = a[field] as string | number;
      const y = b[field] as string | number;
      if (x !== y) return (x < y ? -1 : 1) * dir;
    }
    return 0;
  });
};

/** True for plain JSON (what the query cache can key on: a Date or RegExp would not survive JSON.stringify). */
export const isPlainJson = (value: unknown): boolean => {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as object).every(isPlainJson);
};

/** A collection's compiled queries, reused while the same filter keeps coming (least recently used dropped). */
export class QueryCache {
  private readonly queries = new Map<string, Query>();

  /** A plain equality filter is tested directly; anything else by its compiled mingo query. */
  matcher(filter: Filter): Matcher {
    return equalityMatcher(filter, () => this.compiled(filter)) ?? this.compiled(filter);
  }

  private compiled(filter: Filter): Query {
    if (!isPlainJson(filter)) return new Query(filter, QUERY_OPTIONS);
    const key = JSON.stringify(filter);
    let query = this.queries.get(key);
    if (query) this.queries.delete(key);
    else {
      query = new Query(filter, QUERY_OPTIONS);
      if (this.queries.size >= QUERY_CACHE_SIZE) this.queries.delete(this.queries.keys().next().value!);
    }
    this.queries.set(key, query);
    return query;
  }
}
