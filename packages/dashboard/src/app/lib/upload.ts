import { fileItem, type ImportItem, isKnowledgeFile, parseNdjson, type SourceProblem } from '@palaver/knowledge-formats';
import { ApiError, api } from './api';

export type { ImportItem, SourceProblem };

export interface PreparedUpload {
  items: ImportItem[];
  problems: SourceProblem[];
}

const isNdjson = (name: string): boolean => /\.(ndjson|jsonl)$/i.test(name);

/** The files as import items, with the CLI's rules: NDJSON lines, or one document per Markdown/text/HTML file. */
export const prepareUpload = async (files: File[], baseUrl: string): Promise<PreparedUpload> => {
  const result: PreparedUpload = { items: [], problems: [] };
  for (const file of files) {
    const name = file.webkitRelativePath || file.name;
    const text = await file.text();
    if (isNdjson(name)) {
      const parsed = parseNdjson(text, name);
      result.items.push(...parsed.items);
      result.problems.push(...parsed.invalid);
    } else if (!isKnowledgeFile(name)) {
      result.problems.push({ source: name, reason: 'not a Markdown, text, HTML or NDJSON file' });
    } else if (!baseUrl) {
      result.problems.push({ source: name, reason: 'a base URL is needed to give the document its address' });
    } else {
      const read = fileItem(name, text, baseUrl);
      if (read.kind === 'item') result.items.push(read.item);
      else result.problems.push(read.problem);
    }
  }
  return result;
};

const CONCURRENCY = 4;

/** Sends the items a few at a time; `onProgress` after each; failures are collected, not thrown. */
export const sendUpload = async (projectId: string, items: ImportItem[], onProgress: (done: number) => void): Promise<SourceProblem[]> => {
  const failures: SourceProblem[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await api(`/projects/${projectId}/${item.kind === 'qna' ? 'qnas' : 'documents'}`, { body: item.body });
      } catch (err) {
        failures.push({ source: item.source, reason: err instanceof ApiError ? `${err.status} ${err.code}: ${err.message}` : String(err) });
      }
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return failures;
};
