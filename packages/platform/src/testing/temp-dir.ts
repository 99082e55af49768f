import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A new empty folder under the OS temp dir, `palaver-<name>-…`. */
export const makeTempDir = (name: string): Promise<string> => mkdtemp(join(tmpdir(), `palaver-${name}-`));

export const removeDir = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });

/**
 * A fresh folder for each test of the enclosing `describe`, removed after it. The folder is made
 * in `beforeEach`, so read `path` inside the tests.
 */
export const tempDirPerTest = (name: string): { readonly path: string } => {
  let current = '';
  beforeEach(async () => {
    current = await makeTempDir(name);
  });
  afterEach(async () => {
    await removeDir(current);
  });
  return {
    get path() {
      return current;
    },
  };
};
