const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Characters needed for 32 bytes: 62^43 > 2^256. */
export const BASE62_LENGTH_OF_32_BYTES = 43;

/**
 * Bytes as a fixed-width base62 number (left-padded with 0): secrets that double-click selects whole.
 * Long division on 24-bit limbs (a limb times 62 plus the next stays far below 2^53), which is
 * several times cheaper than BigInt arithmetic on every issued session token.
 */
export const toBase62 = (bytes: Uint8Array, width: number): string => {
  const limbs: number[] = [];
  const head = bytes.length % 3;
  if (head > 0) limbs.push(head === 1 ? bytes[0]! : (bytes[0]! << 8) | bytes[1]!);
  for (let i = head; i < bytes.length; i += 3) limbs.push((bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!);
  const digits: string[] = [];
  let start = 0;
  while (start < limbs.length) {
    let remainder = 0;
    for (let i = start; i < limbs.length; i++) {
      const current = remainder * 0x1000000 + limbs[i]!;
      const quotient = Math.floor(current / 62);
      remainder = current - quotient * 62;
      limbs[i] = quotient;
    }
    digits.push(ALPHABET[remainder]!);
    while (start < limbs.length && limbs[start] === 0) start++;
  }
  if (digits.length > width) throw new Error(`${bytes.length} bytes do not fit in ${width} base62 characters`);
  return digits.reverse().join('').padStart(width, '0');
};

/** The largest multiple of 62 a byte can hold: bytes from it up are drawn again, so every character is equally likely. */
const UNBIASED_BYTE_LIMIT = 62 * 4;

/**
 * `length` uniformly random base62 characters, one from each random byte below 248 (the others are
 * skipped): as much entropy as encoding random bytes (43 characters carry 256 bits), for a few
 * table lookups instead of a long division of the whole number. `draw(n)` gives n random bytes.
 */
export const randomBase62 = (length: number, draw: (size: number) => Uint8Array): string => {
  let text = '';
  while (text.length < length) {
    // 4 % more than needed covers the skipped bytes nearly always; a short draw just loops.
    for (const byte of draw(Math.ceil((length - text.length) * 1.04) + 2)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      text += ALPHABET[byte % 62];
      if (text.length === length) break;
    }
  }
  return text;
};
