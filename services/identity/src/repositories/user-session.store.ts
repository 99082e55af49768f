import { Inject, Injectable } from '@nestjs/common';
import { type KeyValueStore, Ports } from '@palaver/platform';
import { z } from 'zod';

/** A dashboard user's session: whose, and when it lapses unless used (epoch ms). */
export const StoredUserSession = z.object({ userId: z.string(), expiresAt: z.number().int() });
export type StoredUserSession = z.infer<typeof StoredUserSession>;

/** User sessions in the key-value store (Redis when distributed: every gateway sees them) under the SHA-256 of their token. */
@Injectable()
export class UserSessionStore {
  constructor(@Inject(Ports.kv) private readonly kv: KeyValueStore) {}

  async save(tokenHash: string, session: StoredUserSession, ttlSeconds: number): Promise<void> {
    await this.kv.set(storeKey(tokenHash), JSON.stringify(session), ttlSeconds);
  }

  async load(tokenHash: string): Promise<StoredUserSession | null> {
    const raw = await this.kv.get(storeKey(tokenHash));
    if (raw === null) return null;
    try {
      const parsed = StoredUserSession.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async remove(tokenHash: string): Promise<void> {
    await this.kv.del(storeKey(tokenHash));
  }
}

const storeKey = (tokenHash: string): string => `identity:user-session:${tokenHash}`;
