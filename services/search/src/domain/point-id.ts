import { createHash } from 'node:crypto';

/**
 * A stable uuid (version 5 layout) for a vector point named by `parts`: re-indexing the same
 * thing writes the same point, and Qdrant accepts it as an id.
 */
export const pointId = (...parts: Array<string | number>): string => {
  const hex = createHash('sha1').update(parts.join('\u0000')).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};
