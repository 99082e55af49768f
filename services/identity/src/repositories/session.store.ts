import { Inject, Injectable } from '@nestjs/common';
import { type KeyValueStore, Ports } from '@palaver/platform';
import { StoredSession } from '../domain/session';

/** Sessions in the key-value store under the SHA-256 of their token, so a leaked store reveals no token. */
@Injectable()
export class SessionStore {
  constructor(@Inject(Ports.kv) private readonly kv: KeyValueStore) {}

  async save(tokenHash: string, session: StoredSession, ttlSeconds: number): Promise<void> {
    await this.kv.set(storeKey(tokenHash), JSON.stringify(session), ttlSeconds);
  }

  async load(tokenHash: string): Promise<StoredSession | null> {
    const raw = await this.kv.get(storeKey(tokenHash));
    if (raw === null) return null;
    const parsed = StoredSession.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }

  async remove(tokenHash: string): Promise<void> {
    await this.kv.del(storeKey(tokenHash));
  }
}

const storeKey = (tokenHash: string): string => `identity:session:${tokenHash}`;

const safeJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
};
