const KEY = 'palaver.deviceId';
let memoryId: string | undefined;

const newId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/**
 * This browser's device id (`saVid`), kept in localStorage so that a visitor keeps their
 * conversations across reloads. Storage can be missing or throw (private modes, sandboxed
 * frames): then the id lives as long as the page.
 */
export const storedDeviceId = (storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = globalThis.localStorage): string => {
  try {
    const existing = storage?.getItem(KEY);
    if (existing) return existing;
    const id = newId();
    storage?.setItem(KEY, id);
    return id;
  } catch {
    memoryId ??= newId();
    return memoryId;
  }
};
