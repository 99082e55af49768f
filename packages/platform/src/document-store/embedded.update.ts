import type { Modifier } from 'mingo/updater';
import { update as applyModifier } from 'mingo/updater';
import { jsonCopy } from '../json/json-copy';
import type { Filter, Update } from './document-store.port';
import type { Doc } from './embedded.doc';
import { isOperatorObject } from './embedded.query';

/**
 * `doc` after an update made only of `$set` to strings, finite numbers, booleans or null and
 * `$inc` by finite numbers, on top-level fields other than `_id` (a counter, a status: most
 * updates), applied directly: the changed copy, or null when it changes nothing. Undefined for
 * any other update, which mingo applies.
 */
export const scalarUpdate = (doc: Doc, modifier: Modifier<Doc>): Doc | null | undefined => {
  const { $set, $inc, ...others } = modifier as Record<string, Record<string, unknown> | undefined>;
  if (Object.keys(others).length > 0) return undefined;
  const isField = (field: string) => field !== '_id' && field !== '__proto__' && !field.includes('.') && !field.startsWith('$');
  const isJsonScalar = (value: unknown) =>
    value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
  const sets = Object.entries($set ?? {});
  const incs = Object.entries($inc ?? {});
  if (!sets.every(([field, value]) => isField(field) && isJsonScalar(value))) return undefined;
  if (!incs.every(([field, by]) => isField(field) && typeof by === 'number' && Number.isFinite(by))) return undefined;
  if (incs.some(([field]) => (doc[field] !== undefined && typeof doc[field] !== 'number') || sets.some(([set]) => set === field)))
    return undefined;
  let changed = false;
  const after: Doc = { ...doc };
  for (const [field, value] of sets) {
    if (after[field] === value && Object.hasOwn(after, field)) continue;
    after[field] = value;
    changed = true;
  }
  for (const [field, by] of incs) {
    const value = ((after[field] as number | undefined) ?? 0) + (by as number);
    if (!Number.isFinite(value)) return undefined;
    if (after[field] === value) continue;
    after[field] = value;
    changed = true;
  }
  // Stored documents are never changed in place, so the new one may share their nested values.
  return changed ? after : null;
};

/** Documents are stored as their JSON form, so what is in memory is exactly what a reload gives. */
export const toStored = (doc: Doc): Doc => jsonCopy(doc) as Doc;

/** Splits an update into what applies to an existing document and what applies on insert ($setOnInsert). */
export const parseUpdate = (update: Update): { update: Modifier<Doc>; insert: Modifier<Doc> } => {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new Error('an update needs at least one operator');
  const bad = keys.find((key) => !key.startsWith('$'));
  if (bad) throw new Error(`an update must use operators ($set, ...), got field ${JSON.stringify(bad)}`);
  const { $setOnInsert, ...rest } = update as Record<string, Record<string, unknown>>;
  const onUpdate = rest as Modifier<Doc>;
  if (!$setOnInsert) return { update: onUpdate, insert: onUpdate };
  return { update: onUpdate, insert: { ...rest, $set: { ...(rest.$set ?? {}), ...$setOnInsert } } as Modifier<Doc> };
};

/**
 * The document an upsert starts from, as MongoDB builds it: the filter's equality conditions
 * (`field: value`, `field: { $eq: value }`, and those inside `$and`).
 */
export const seedFromFilter = (filter: Filter): Record<string, unknown> => {
  const equalities: Record<string, unknown> = {};
  const collect = (clause: Filter) => {
    for (const [key, value] of Object.entries(clause)) {
      if (key === '$and' && Array.isArray(value)) {
        for (const sub of value) collect(sub as Filter);
        continue;
      }
      if (key.startsWith('$')) continue;
      if (value instanceof RegExp) continue;
      if (isOperatorObject(value)) {
        if ('$eq' in value) equalities[key] = value.$eq;
        continue;
      }
      equalities[key] = value;
    }
  };
  collect(filter);
  // mingo refuses to $set an _id (immutable), so it is placed directly.
  const { _id, ...rest } = equalities;
  const seed: Record<string, unknown> = _id === undefined ? {} : { _id };
  if (Object.keys(rest).length > 0)
    applyModifier(seed, { $set: rest } as Modifier<Record<string, unknown>>, undefined, undefined, { cloneMode: 'deep' });
  return seed;
};
