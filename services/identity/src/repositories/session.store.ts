import { Inject, Injectable } from '@nestjs/common';
import { type KeyValueStore, Ports } from '@palaver/platform';
import { StoredSession } from '../domain/session';
import { KvSessionStore } from './kv-session.store';

/** Visitors' sessions (`POST /v2/identity/init`). */
@Injectable()
export class SessionStore extends KvSessionStore<StoredSession> {
  constructor(@Inject(Ports.kv) kv: KeyValueStore) {
    super(kv, 'identity:session', StoredSession);
  }
}
