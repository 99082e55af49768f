import type { WithId } from '@palaver/platform';

/** Records keep their id in `_id` at rest. */
export type Stored<T extends { id: string }> = Omit<T, 'id'> & WithId;

export const toDocument = <T extends { id: string }>(record: T): Stored<T> => {
  const { id, ...rest } = record;
  return { _id: id, ...rest } as Stored<T>;
};

export const fromDocument = <T extends { id: string }>(doc: Stored<T>): T => {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest } as unknown as T;
};
