import { type Collection, DuplicateKeyError, type Filter, type WithId } from '../document-store/document-store.port';

/**
 * Inserts the document unless one with its key (its `_id` or a unique index) is stored already:
 * true when this call inserted it, false when another writer (or an earlier delivery) got there first.
 */
export const insertUnlessPresent = async <T extends WithId>(collection: Collection<T>, doc: T): Promise<boolean> => {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
};

/**
 * Compare-and-set of a whole document: with `expected` null (none was read) it is inserted, else it
 * replaces the stored one only while that still matches `expected` (the version it was read at).
 * False when another writer moved it first: the caller reads again.
 */
export const replaceIfUnchanged = async <T extends WithId>(
  collection: Collection<T>,
  doc: T,
  expected: Filter | null,
): Promise<boolean> => {
  if (expected === null) return insertUnlessPresent(collection, doc);
  const { matched } = await collection.replaceOne({ _id: doc._id, ...expected }, doc);
  return matched > 0;
};
