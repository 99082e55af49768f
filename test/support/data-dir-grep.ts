import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file's bytes; null when it went away since it was listed (a compaction's temporary file). */
const readIfThere = async (path: string): Promise<Buffer | null> => {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
};

/** Every file under `dir` (recursively) whose bytes contain `needle`, as paths relative to `dir`. */
export const filesContaining = async (dir: string, needle: string): Promise<string[]> => {
  const found: string[] = [];
  const bytes = Buffer.from(needle);
  const walk = async (path: string, relative: string): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(full, rel);
      else if (entry.isFile() && (await readIfThere(full))?.includes(bytes)) found.push(rel);
    }
  };
  await walk(dir, '');
  return found;
};
