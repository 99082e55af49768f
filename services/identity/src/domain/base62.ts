const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Characters needed for 32 bytes: 62^43 > 2^256. */
export const BASE62_LENGTH_OF_32_BYTES = 43;

/** Bytes as a fixed-width base62 number (left-padded with 0): secrets that double-click selects whole. */
export const toBase62 = (bytes: Uint8Array, width: number): string => {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  if (out.length > width) throw new Error(`${bytes.length} bytes do not fit in ${width} base62 characters`);
  return out.padStart(width, '0');
};
