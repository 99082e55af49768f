import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes a created, renamed or removed directory entry durable. */
export const fsyncDir = async (dir: string): Promise<void> => {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

/** Replaces a file so that a reader (or a crash) sees either the old content or the new one, never a mix. */
export const writeFileAtomic = async (path: string, content: string): Promise<void> => {
  const tmp = `${path}.${randomUUID()}.tmp`;
  try {
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  await fsyncDir(dirname(path));
};
