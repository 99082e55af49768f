/** Length of every data key: AES-256. */
export const DATA_KEY_BYTES = 32;

/**
 * Data keys for crypto-shredding: one random AES-256 key per subject (a conversation, a visitor),
 * named by an opaque id. What a key encrypted is readable while the key exists and never again
 * once it is deleted, wherever the ciphertext lies (event log, stream, backups).
 */
export interface KeyStore {
  /** The subject's key, made (random) and stored durably first if it has none; concurrent calls get one key. */
  createOrGet(keyId: string): Promise<Buffer>;
  /** The subject's key, or null when it never had one or it was deleted. */
  get(keyId: string): Promise<Buffer | null>;
  /**
   * Deletes the keys (absent ones are ignored). Once it resolves no copy of their bytes remains in
   * the store's files: the embedded adapter rewrites its file without them.
   */
  delete(keyIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
