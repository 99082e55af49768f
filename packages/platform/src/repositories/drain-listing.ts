/**
 * Works through a listing that shrinks as its items are dealt with (what is left to delete, to
 * erase, to release): `list` is asked again after each batch, until it answers nothing it did not
 * answer before. An item still listed after `handle` dealt with it is not handed over again, so
 * one that cannot be removed stops the loop instead of spinning it. Answers how many were handled.
 */
export const drainListing = async <T>(
  list: () => Promise<readonly T[]>,
  idOf: (item: T) => string,
  handle: (batch: T[]) => Promise<void>,
): Promise<number> => {
  const seen = new Set<string>();
  for (;;) {
    const fresh = (await list()).filter((item) => !seen.has(idOf(item)));
    if (fresh.length === 0) return seen.size;
    for (const item of fresh) seen.add(idOf(item));
    await handle(fresh);
  }
};
