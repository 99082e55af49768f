import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Writes files (relative path → text) below `root`, making the folders. */
export const writeTree = async (root: string, contents: Record<string, string>): Promise<void> => {
  for (const [path, text] of Object.entries(contents)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
};
