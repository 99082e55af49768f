import type { KeyValueStore } from '@palaver/platform';
import type { z } from 'zod';

/**
 * Sessions of one kind in the key-value store (Redis when distributed: every gateway sees them)
 * under `prefix` and the SHA-256 of their token, so a leaked store reveals no token. A value that
 * does not parse reads as no session.
 */
export class KvSessionStore<T> {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly prefix: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  async save(tokenHash: string, session: T, ttlSeconds: number): Promise<void> {
    await this.kv.set(this.key(tokenHash), JSON.stringify(session), ttlSeconds);
  }

  async load(tokenHash: string): Promise<T | null> {
    const raw = await this.kv.get(this.key(tokenHash));
    if (raw === null) return null;
    const parsed = this.schema.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }

  async remove(tokenHash: string): Promise<void> {
    await this.kv.del(this.key(tokenHash));
  }

  private key(tokenHash: string): string {
    return `${this.prefix}:${tokenHash}`;
  }
}

const safeJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
};
