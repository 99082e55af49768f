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
