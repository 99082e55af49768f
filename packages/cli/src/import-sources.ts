import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileItem, type ImportSources, isKnowledgeFile, parseNdjson } from '@palaver/knowledge-formats';

export const readNdjson = async (file: string): Promise<ImportSources> => parseNdjson(await readFile(file, 'utf8'), basename(file));

/** Every regular file below `dir`, relative, sorted; hidden files and folders (`.git`, ...) are left out. */
const listFiles = async (dir: string, prefix = ''): Promise<string[]> => {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const rel = prefix ? join(prefix, entry.name) : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) files.push(rel);
  }
  return files;
};

/**
 * Every `.md`, `.markdown`, `.txt` and `.html` file below `dir` as a document: title from the
 * first heading (or front matter `title:`, or `<h1>`/`<title>` for HTML), else the file name;
 * url = `baseUrl` + relative path without extension; path = the relative path.
 */
export const readFolder = async (dir: string, options: { baseUrl: string }): Promise<ImportSources> => {
  const result: ImportSources = { items: [], skipped: [], invalid: [], ignoredFiles: 0 };
  for (const file of await listFiles(dir)) {
    if (!isKnowledgeFile(file)) {
      result.ignoredFiles++;
      continue;
    }
    const read = fileItem(file, await readFile(join(dir, file), 'utf8'), options.baseUrl);
    if (read.kind === 'item') result.items.push(read.item);
    else result[read.kind].push(read.problem);
  }
  return result;
};

/** A folder or an NDJSON file, decided by what `target` is. */
export const readSources = async (target: string, options: { baseUrl?: string }): Promise<ImportSources> => {
  const info = await stat(target);
  if (info.isDirectory()) {
    if (!options.baseUrl) throw new Error('--base-url is required to import a folder (document urls are built from it)');
    return readFolder(target, { baseUrl: options.baseUrl });
  }
  return readNdjson(target);
};
