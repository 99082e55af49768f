/**
 * Feed cursors are the per-project arrival sequence, zero-padded so that they also sort as
 * strings. Clients treat them as opaque and only hand them back as `after`.
 */
const WIDTH = 12;

export const encodeCursor = (seq: number): string => String(seq).padStart(WIDTH, '0');

/** The sequence a cursor stands for, or null when it is not one of ours. */
export const decodeCursor = (cursor: string): number | null => {
  if (!/^\d{1,15}$/.test(cursor)) return null;
  return Number(cursor);
};
