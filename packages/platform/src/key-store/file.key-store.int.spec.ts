import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeUntilKilled } from '../testing/crash';
import { describeKeyStoreContract } from '../testing/key-store.contract';
import { FileKeyStore } from './file.key-store';
import { InMemoryKeyStore } from './in-memory.key-store';

describeKeyStoreContract('FileKeyStore', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-keys-'));
  return { open: () => FileKeyStore.open(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describe('FileKeyStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-keys-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Every byte of every file in the folder, as text. */
  const folderText = async (): Promise<string> => {
    const names = await readdir(dir);
    return (await Promise.all(names.map((name) => readFile(join(dir, name), 'latin1')))).join('\n');
  };

  it('leaves no byte of a deleted key in its folder', async () => {
    const store = await FileKeyStore.open(dir);
    const gone = await store.createOrGet('gone');
    const kept = await store.createOrGet('kept');
    expect(await folderText()).toContain(gone.toString('base64'));
    await store.delete(['gone']);
    const text = await folderText();
    expect(text).not.toContain(gone.toString('base64'));
    expect(text).not.toContain('"gone"');
    expect(text).toContain(kept.toString('base64'));
    // Keys made after the rewrite go to the new file.
    const later = await store.createOrGet('later');
    await store.close();
    const again = await FileKeyStore.open(dir);
    expect((await again.get('later'))?.equals(later)).toBe(true);
    expect(await again.get('gone')).toBeNull();
    await again.close();
  });

  it('keeps every acknowledged key when the process is killed with SIGKILL while making keys', async () => {
    let pid = 0;
    const acked = await writeUntilKilled('keys', dir, 150, (childPid) => {
      pid = childPid;
    });
    // The writer itself was killed (node with tsx's loader, not a wrapper whose child lives on).
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    const made = new Map<string, string>();
    const deleted = new Set<string>();
    for (const line of acked) {
      const [what, keyId, key] = line.split(' ');
      if (what === 'key') made.set(keyId!, key!);
      else deleted.add(keyId!);
    }
    expect(made.size).toBeGreaterThanOrEqual(140);
    expect(deleted.size).toBeGreaterThan(0);
    const store = await FileKeyStore.open(dir);
    for (const [keyId, key] of made) {
      if (deleted.has(keyId)) expect(await store.get(keyId), keyId).toBeNull();
      else expect((await store.get(keyId))?.toString('base64'), keyId).toBe(key);
    }
    await store.close();
  });
});

describeKeyStoreContract('InMemoryKeyStore (one instance across reopens)', async () => {
  const store = new InMemoryKeyStore();
  return { open: async () => ({ ...bind(store), close: async () => {} }) };
});

/** The store's methods bound to it, so that a "closed" view leaves the keys in place. */
const bind = (store: InMemoryKeyStore) => ({
  createOrGet: store.createOrGet.bind(store),
  get: store.get.bind(store),
  delete: store.delete.bind(store),
});
