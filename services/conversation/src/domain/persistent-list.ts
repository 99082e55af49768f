/** Messages per chunk: a change copies one chunk and the list of chunks, never the whole list. */
const CHUNK = 64;

/**
 * An immutable list (a conversation's messages, oldest first): adding or changing an item gives a
 * new list that shares every chunk but one with the old one, which stays as it was. The
 * conversation's state copied its whole array of messages for each event, so each command of a
 * long conversation cost more, and left more for the garbage collector, than one of a short one.
 */
export class PersistentList<T> {
  private static readonly EMPTY = new PersistentList<never>([], 0);

  private constructor(
    private readonly chunks: readonly (readonly T[])[],
    readonly length: number,
  ) {}

  static empty<T>(): PersistentList<T> {
    return PersistentList.EMPTY;
  }

  at(index: number): T | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return this.chunks[Math.floor(index / CHUNK)]![index % CHUNK];
  }

  push(item: T): PersistentList<T> {
    const chunks = this.chunks.slice();
    if (this.length % CHUNK === 0) chunks.push([item]);
    else chunks[chunks.length - 1] = [...chunks[chunks.length - 1]!, item];
    return new PersistentList(chunks, this.length + 1);
  }

  /** The list with `item` at `index` (which must be below `length`). */
  set(index: number, item: T): PersistentList<T> {
    if (index < 0 || index >= this.length) throw new RangeError(`no item at ${index} of ${this.length}`);
    const chunks = this.chunks.slice();
    const chunk = chunks[Math.floor(index / CHUNK)]!.slice();
    chunk[index % CHUNK] = item;
    chunks[Math.floor(index / CHUNK)] = chunk;
    return new PersistentList(chunks, this.length);
  }

  toArray(): T[] {
    return this.chunks.flat() as T[];
  }
}
