/**
 * A version-7 UUID: the time in milliseconds, a 12-bit sequence, then random bits. The caller
 * counts the sequence up within a millisecond, so ids it makes sort in the order it made them.
 */
export const uuidV7 = (nowMs: number, sequence: number, random: Uint8Array): string => {
  if (random.length < 8) throw new Error('a v7 UUID needs 8 random bytes');
  const bytes = new Uint8Array(16);
  let time = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes.set(random.subarray(0, 8), 8);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
