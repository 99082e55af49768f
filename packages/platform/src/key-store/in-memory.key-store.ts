import { randomBytes } from 'node:crypto';
import { DATA_KEY_BYTES, type KeyStore } from './key-store.port';

/** Keys in memory only, for tests and for processes that must not persist any (nothing survives a restart). */
export class InMemoryKeyStore implements KeyStore {
  private readonly keys = new Map<string, Buffer>();

  async createOrGet(keyId: string): Promise<Buffer> {
    let key = this.keys.get(keyId);
    if (!key) {
      key = randomBytes(DATA_KEY_BYTES);
      this.keys.set(keyId, key);
    }
    return key;
  }

  async get(keyId: string): Promise<Buffer | null> {
    return this.keys.get(keyId) ?? null;
  }

  async delete(keyIds: readonly string[]): Promise<void> {
    for (const id of keyIds) this.keys.delete(id);
  }

  async close(): Promise<void> {}
}
