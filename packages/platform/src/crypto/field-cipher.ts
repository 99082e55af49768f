import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DATA_KEY_BYTES } from '../key-store/key-store.port';

/** Marks a sealed value, and its format's version: `pv1:` then base64 of iv, tag and ciphertext. */
export const SEALED_PREFIX = 'pv1:';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Whether a value is one `sealField` made (anything else passes through `openField` callers untouched). */
export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(SEALED_PREFIX);

/** A sealed value that does not open with its key: tampered with, or bound to another place. */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedValueError';
  }
}

const assertKey = (key: Buffer): void => {
  if (key.length !== DATA_KEY_BYTES) throw new Error(`a data key has ${DATA_KEY_BYTES} bytes, not ${key.length}`);
};

/**
 * Encrypts any JSON value with AES-256-GCM under `key`, a fresh random IV each time. `context` is
 * authenticated, not stored: the value opens only with the same context (its owner and place), so
 * a sealed value copied elsewhere does not open.
 */
export const sealField = (key: Buffer, value: unknown, context: string): string => {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(JSON.stringify(value ?? null), 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
};

/** The value `sealField` sealed; SealedValueError when the key, the context or the bytes do not match. */
export const openField = (key: Buffer, sealed: string, context: string): unknown => {
  assertKey(key);
  if (!isSealed(sealed)) throw new SealedValueError('not a sealed value');
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SealedValueError('sealed value too short');
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    throw new SealedValueError('sealed value does not open with this key and context');
  }
};
