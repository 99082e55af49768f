import { Inject, Injectable } from '@nestjs/common';
import { type KeyValueStore, Ports } from '@palaver/platform';
import { z } from 'zod';
import { KvSessionStore } from './kv-session.store';

/** A dashboard user's session: whose, and when it lapses unless used (epoch ms). */
export const StoredUserSession = z.object({ userId: z.string(), expiresAt: z.number().int() });
export type StoredUserSession = z.infer<typeof StoredUserSession>;

/** Dashboard users' sessions (the cookie's token). */
@Injectable()
export class UserSessionStore extends KvSessionStore<StoredUserSession> {
  constructor(@Inject(Ports.kv) kv: KeyValueStore) {
    super(kv, 'identity:user-session', StoredUserSession);
  }
}
