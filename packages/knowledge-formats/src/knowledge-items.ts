import { DocumentBody, QnaBody } from '@palaver/contracts';
import type { z } from 'zod';
import { htmlTitle, htmlToText } from './html-text';
import { markdownTitle, stripFrontMatter } from './markdown-text';

// Pure functions (no node: imports), shared by the CLI and the dashboard's upload in the browser.

export type ImportItem = { kind: 'document'; source: string; body: DocumentBody } | { kind: 'qna'; source: string; body: QnaBody };

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

export const toPosix = (path: string): string => path.replaceAll('\\', '/');

/** The extension with its dot (`.md`), or '' when the last segment has none. */
const extname = (path: string): string => {
  const name = toPosix(path).split('/').pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
};

const basename = (path: string, ext = ''): string => {
  const name = toPosix(path).split('/').pop() ?? '';
  return ext && name.endsWith(ext) ? name.slice(0, name.length - ext.length) : name;
};

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

/** One file as a document item, or why it is skipped (empty) or invalid. */
export const fileItem = (
  relativePath: string,
  raw: string,
  baseUrl: string,
): { kind: 'item'; item: ImportItem } | { kind: 'skipped' | 'invalid'; problem: SourceProblem } => {
  const source = toPosix(relativePath);
  const { title, content } = fileDocument(relativePath, raw);
  if (!content) return { kind: 'skipped', problem: { source, reason: 'empty file' } };
  const parsed = DocumentBody.safeParse({
    title: title.slice(0, TITLE_MAX),
    url: documentUrl(baseUrl, relativePath),
    path: source,
    content,
  });
  if (!parsed.success) return { kind: 'invalid', problem: { source, reason: describeIssues(parsed.error) } };
  return { kind: 'item', item: { kind: 'document', source, body: parsed.data } };
};

/** Whether a file name is of a type a folder import reads. */
export const isKnowledgeFile = (name: string): boolean => (FOLDER_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase());
