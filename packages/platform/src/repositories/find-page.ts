import type { Collection, Filter, Sort, WithId } from '../document-store/document-store.port';

export interface FoundPage<T> {
  /** How many match the filter, on every page. */
  total: number;
  data: T[];
}

/** One page of what matches `filter`, in `sort` order, with the count of all that match. */
export const findPage = async <T extends WithId>(
  collection: Collection<T>,
  filter: Filter,
  page: { sort: Sort; limit: number; offset: number },
): Promise<FoundPage<T>> => {
  const [total, data] = await Promise.all([
    collection.count(filter),
    collection.find(filter, { sort: page.sort, skip: page.offset, limit: page.limit }),
  ]);
  return { total, data };
};
