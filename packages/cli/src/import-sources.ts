import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, sep } from 'node:path';
import { DocumentBody, QnaBody } from '@palaver/contracts';
import type { z } from 'zod';
import { htmlTitle, htmlToText } from './html-text';
import { markdownTitle, stripFrontMatter } from './markdown-text';

export type ImportItem =
  | { kind: 'document'; source: string; body: DocumentBody }
  | { kind: 'qna'; source: string; body: QnaBody };

/** An input that will not be sent; `source` is `file:line` for NDJSON, the relative path for folders. */
export interface SourceProblem {
  source: string;
  reason: string;
}

export interface ImportSources {
  items: ImportItem[];
  /** Inputs with nothing to import (empty files). */
  skipped: SourceProblem[];
  /** Inputs that fail the contracts' schemas or cannot be parsed. */
  invalid: SourceProblem[];
  /** Files in a folder that are not of a supported type. */
  ignoredFiles: number;
}

export const FOLDER_EXTENSIONS = ['.md', '.markdown', '.txt', '.html'] as const;
const TITLE_MAX = 500;

const describeIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');

const isQnaLine = (value: Record<string, unknown>): boolean => 'question' in value || 'answer' in value;

/** Parses NDJSON text: each non-blank line is a document (`DocumentBody`) or a Q&A entry (`{ question, answer }`). */
export const parseNdjson = (text: string, name: string): ImportSources => {
  const result: ImportSources = { items: [], skipped: [], invalid: [], ignoredFiles: 0 };
  text.split(/\r?\n/).forEach((line, index) => {
    const source = `${name}:${index + 1}`;
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      result.invalid.push({ source, reason: `not valid JSON (${(err as Error).message})` });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      result.invalid.push({ source, reason: 'expected a JSON object' });
      return;
    }
    if (isQnaLine(value as Record<string, unknown>)) {
      const parsed = QnaBody.safeParse(value);
      if (parsed.success) result.items.push({ kind: 'qna', source, body: parsed.data });
      else result.invalid.push({ source, reason: `Q&A entry: ${describeIssues(parsed.error)}` });
      return;
    }
    const parsed = DocumentBody.safeParse(value);
    if (parsed.success) result.items.push({ kind: 'document', source, body: parsed.data });
    else result.invalid.push({ source, reason: `document: ${describeIssues(parsed.error)}` });
  });
  return result;
};

export const readNdjson = async (file: string): Promise<ImportSources> =>
  parseNdjson(await readFile(file, 'utf8'), basename(file));

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

const toPosix = (path: string): string => path.split(sep).join('/');

/** `base` + the relative path without its extension, each segment URL-encoded. */
export const documentUrl = (baseUrl: string, relativePath: string): string => {
  const withoutExt = relativePath.slice(0, relativePath.length - extname(relativePath).length);
  const encoded = toPosix(withoutExt).split('/').map(encodeURIComponent).join('/');
  return `${baseUrl.replace(/\/+$/, '')}/${encoded}`;
};

const fileTitle = (relativePath: string): string => basename(relativePath, extname(relativePath));

/** Title and text of one file, by its type. */
export const fileDocument = (relativePath: string, raw: string): { title: string; content: string } => {
  const ext = extname(relativePath).toLowerCase();
  if (ext === '.html') {
    return { title: htmlTitle(raw) ?? fileTitle(relativePath), content: htmlToText(raw).trim() };
  }
  if (ext === '.md' || ext === '.markdown') {
    const { frontTitle, body } = stripFrontMatter(raw);
    return { title: frontTitle ?? markdownTitle(body) ?? fileTitle(relativePath), content: body.trim() };
  }
  return { title: fileTitle(relativePath), content: raw.trim() };
};

/**
 * Every `.md`, `.markdown`, `.txt` and `.html` file below `dir` as a document: title from the
 * first heading (or front matter `title:`, or `<h1>`/`<title>` for HTML), else the file name;
 * url = `baseUrl` + relative path without extension; path = the relative path.
 */
export const readFolder = async (dir: string, options: { baseUrl: string }): Promise<ImportSources> => {
  const result: ImportSources = { items: [], skipped: [], invalid: [], ignoredFiles: 0 };
  for (const file of await listFiles(dir)) {
    const source = toPosix(file);
    if (!(FOLDER_EXTENSIONS as readonly string[]).includes(extname(file).toLowerCase())) {
      result.ignoredFiles++;
      continue;
    }
    const { title, content } = fileDocument(file, await readFile(join(dir, file), 'utf8'));
    if (!content) {
      result.skipped.push({ source, reason: 'empty file' });
      continue;
    }
    const parsed = DocumentBody.safeParse({
      title: title.slice(0, TITLE_MAX),
      url: documentUrl(options.baseUrl, file),
      path: source,
      content,
    });
    if (parsed.success) result.items.push({ kind: 'document', source, body: parsed.data });
    else result.invalid.push({ source, reason: describeIssues(parsed.error) });
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
