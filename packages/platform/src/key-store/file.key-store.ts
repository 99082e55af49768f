import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { JsonlLog } from '../storage/jsonl-log';
import { DATA_KEY_BYTES, type KeyStore } from './key-store.port';

/** One line per key made; deletions are not logged but compacted away (see `delete`). */
interface KeyRecord {
  id: string;
  key: string;
}

const LOG_FILE = 'keys.jsonl';

/**
 * The embedded key store: a JSONL file in `dir`, every key held in memory. A key is answered only
 * once its line is fsynced (group commit, so a burst of new conversations shares fsyncs). A delete
 * rewrites the whole file without the deleted keys (temporary file, fsync, rename, fsync of the
 * folder): a tombstone line would leave the key's bytes on disk, which is what erasure must not.
 */
export class FileKeyStore implements KeyStore {
  private readonly keys = new Map<string, Buffer>();
  /** Keys being made: their line is not yet durable, and a second caller waits for the same one. */
  private readonly making = new Map<string, Promise<Buffer>>();
  private closed = false;

  private constructor(private readonly log: JsonlLog<KeyRecord>) {}

  static async open(dir: string): Promise<FileKeyStore> {
    const { log, records } = await JsonlLog.open<KeyRecord>(join(dir, LOG_FILE));
    const store = new FileKeyStore(log);
    for (const record of records) store.keys.set(record.id, Buffer.from(record.key, 'base64'));
    return store;
  }

  async createOrGet(keyId: string): Promise<Buffer> {
    this.assertOpen();
    const known = this.keys.get(keyId);
    if (known) return known;
    const pending = this.making.get(keyId);
    if (pending) return pending;
    const key = randomBytes(DATA_KEY_BYTES);
    const made = this.log.append([{ id: keyId, key: key.toString('base64') }]).then(() => {
      this.keys.set(keyId, key);
      return key;
    });
    this.making.set(keyId, made);
    try {
      return await made;
    } finally {
      this.making.delete(keyId);
    }
  }

  async get(keyId: string): Promise<Buffer | null> {
    this.assertOpen();
    return this.keys.get(keyId) ?? (await this.making.get(keyId)) ?? null;
  }

  async delete(keyIds: readonly string[]): Promise<void> {
    this.assertOpen();
    // A key still being made is finished first, so that the rewrite cannot miss its line.
    await Promise.all(keyIds.map((id) => this.making.get(id)?.catch(() => undefined)));
    const present = keyIds.filter((id) => this.keys.has(id));
    if (present.length === 0) return;
    for (const id of present) this.keys.delete(id);
    await this.log.rewrite(this.records());
  }

  private *records(): Iterable<KeyRecord> {
    for (const [id, key] of this.keys) yield { id, key: key.toString('base64') };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.log.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('key store is closed');
  }
}
