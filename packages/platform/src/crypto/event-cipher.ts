import { type Clock, systemClock } from '../clock/clock.port';
import { jsonCopy } from '../json/json-copy';
import type { KeyStore } from '../key-store/key-store.port';
import { isSealed, openField, sealField } from './field-cipher';

/**
 * Which fields of an event's data are personal, by event type, each with the value it reads as
 * once its key is deleted (an erased message reads as empty text, never as an error).
 */
export type PersonalFieldPolicy = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

interface EventLike {
  type: string;
  data: unknown;
}

/** How long a key is used from memory before the store is asked again (an erasure elsewhere is seen within it). */
const KEY_CACHE_MS = 30_000;
const KEY_CACHE_MAX = 10_000;

/**
 * Crypto-shredding of events: `seal` encrypts an event's personal fields with its subject's data
 * key (made on first use) before it is stored or published; `open` decrypts them for readers.
 * When the key is gone (`erase`), `open` gives the policy's erased value for each sealed field.
 * Values that are not sealed (events written before encryption) pass through unchanged.
 *
 * Each sealed value is bound to its key id, event type and field: it opens nowhere else.
 */
export class EventCipher {
  private readonly cache = new Map<string, { key: Buffer; until: number }>();

  constructor(
    private readonly keys: KeyStore,
    private readonly policy: PersonalFieldPolicy,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Copies of the events with their personal fields sealed under `keyId`'s key. */
  async seal<E extends EventLike>(keyId: string, events: readonly E[]): Promise<E[]> {
    if (!events.some((event) => this.fieldsOf(event))) return [...events];
    const key = await this.key(keyId, true);
    return events.map((event) =>
      this.transform(event, (field, value) => (isSealed(value) ? value : sealField(key!, value, context(keyId, event.type, field)))),
    );
  }

  /** Copies of the events with their sealed fields opened, or set to their erased value when the key is gone. */
  async open<E extends EventLike>(keyId: string, events: readonly E[]): Promise<E[]> {
    if (!events.some((event) => this.hasSealed(event))) return [...events];
    const key = await this.key(keyId, false);
    return events.map((event) => {
      const erased = this.fieldsOf(event) ?? {};
      return this.transform(event, (field, value) => {
        if (!isSealed(value)) return value;
        return key ? openField(key, value, context(keyId, event.type, field)) : (erased[field] ?? null);
      });
    });
  }

  /**
   * What `open` gives for `sealed`, the events `seal` made from `plain` (in the same order, as a
   * store returns what it appended): each field sealed from a plain value is that value copied with
   * JSON's rules (what opening it gives), so what was just encrypted is not decrypted again. Values
   * that were sealed already in `plain` are opened.
   */
  openSealedFrom<E extends EventLike>(keyId: string, sealed: readonly E[], plain: readonly EventLike[]): Promise<E[]> {
    const restored = sealed.map((event, i) => {
      const before = plain[i]?.data;
      if (!isRecord(before)) return event;
      return this.transform(event, (field, value) => {
        const original = before[field];
        return isSealed(value) && original !== undefined && original !== null && !isSealed(original) ? jsonCopy(original) : value;
      });
    });
    return this.open(keyId, restored);
  }

  /** Deletes the keys: everything sealed under them is unreadable from now on, here at once. */
  async erase(keyIds: readonly string[]): Promise<void> {
    for (const id of keyIds) this.cache.delete(id);
    await this.keys.delete(keyIds);
    for (const id of keyIds) this.cache.delete(id);
  }

  private fieldsOf(event: EventLike): Readonly<Record<string, unknown>> | null {
    return Object.hasOwn(this.policy, event.type) ? this.policy[event.type]! : null;
  }

  private hasSealed(event: EventLike): boolean {
    const fields = this.fieldsOf(event);
    if (!fields || !isRecord(event.data)) return false;
    const data = event.data;
    return Object.keys(fields).some((field) => isSealed(data[field]));
  }

  private transform<E extends EventLike>(event: E, change: (field: string, value: unknown) => unknown): E {
    const fields = this.fieldsOf(event);
    if (!fields || !isRecord(event.data)) return event;
    const data: Record<string, unknown> = { ...event.data };
    // A null or absent field holds nothing personal: it stays as it is (and costs no encryption).
    for (const field of Object.keys(fields))
      if (data[field] !== undefined && data[field] !== null) data[field] = change(field, data[field]);
    return { ...event, data };
  }

  private async key(keyId: string, create: boolean): Promise<Buffer | null> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(keyId);
    if (cached && cached.until > now) return cached.key;
    const key = create ? await this.keys.createOrGet(keyId) : await this.keys.get(keyId);
    if (key) {
      if (this.cache.size >= KEY_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(keyId, { key, until: now + KEY_CACHE_MS });
    }
    return key;
  }
}

const context = (keyId: string, type: string, field: string): string => `${keyId}|${type}|${field}`;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
