import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { createInfrastructure } from '../infrastructure.factory';
import { DataDirLockedError, lockDataDir } from './data-dir.lock';

describe('the data folder lock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-lock-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes the owner pid, refuses a second owner, and frees the folder on release', async () => {
    const lock = await lockDataDir(dir);
    expect((await readFile(lock.path, 'utf8')).trim()).toBe(String(process.pid));
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await lock.release();
    const again = await lockDataDir(dir);
    await again.release();
  });

  it('refuses a folder held by another live process, and takes over once that process is gone', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await new Promise((r) => other.once('spawn', r));
    await writeFile(join(dir, 'palaver.lock'), `${other.pid}\n`);
    const refused = await lockDataDir(dir).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toContain(`in use by process ${other.pid}`);

    await new Promise((r) => {
      other.once('exit', r);
      other.kill('SIGKILL');
    });
    const lock = await lockDataDir(dir);
    expect((await readFile(lock.path, 'utf8')).trim()).toBe(String(process.pid));
    await lock.release();
  });

  it('createInfrastructure takes the lock for its embedded stores and releases it on close', async () => {
    const config = loadConfig({ DATA_DIR: dir, SEED_DEMO: 'false' });
    const infra = await createInfrastructure(config, { only: ['documents'] });
    await expect(createInfrastructure(config, { only: ['documents'] })).rejects.toThrow(/is in use by process/);
    await infra.close();
    const reopened = await createInfrastructure(config, { only: ['documents'] });
    await reopened.close();
  });

  it('a process with no embedded store (only real engines or stateless ports) takes no lock', async () => {
    const config = loadConfig({ DATA_DIR: dir, SEED_DEMO: 'false' });
    const holder = await lockDataDir(dir);
    const stateless = await createInfrastructure(config, { only: ['pubsub', 'chatModel'] });
    await stateless.close();
    await holder.release();
  });
});
