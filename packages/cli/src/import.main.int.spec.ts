import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DocumentRecord, pagedList, Qna } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalProxy } from './testing/local-proxy';
import { ADMIN_TOKEN, type RunningApp, startRunningApp } from './testing/running-app';
import { writeTree } from './testing/write-tree';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DocumentList = pagedList(DocumentRecord);
const QnaList = pagedList(Qna);

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `pnpm import-knowledge ...` as a user runs it: the entry point in a child process. */
const runCli = (args: string[], env: Record<string, string> = {}, onStart?: (child: ChildProcess) => void): Promise<CliRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'packages/cli/src/import.main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ADMIN_TOKEN: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that Ctrl-C can be sent as a terminal does: to the whole group.
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    onStart?.(child);
  });

const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';

let running: RunningApp;

beforeAll(async () => {
  running = await startRunningApp();
});
afterAll(() => running?.stop());

const ndjsonFile = async (name: string, lines: unknown[]): Promise<string> => {
  const file = join(running.scratchDir, name);
  await writeFile(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'));
  return file;
};

const documentsOf = async (projectId: string) =>
  DocumentList.parse(await running.admin('GET', `/projects/${projectId}/documents?limit=100`));

describe('pnpm import-knowledge (the CLI entry point)', () => {
  it('imports a folder, reports the skipped empty file and exits 0', async () => {
    const { projectId } = await running.createProject();
    const folder = join(running.scratchDir, 'folder');
    await writeTree(folder, { 'guide/install.md': '# Install\n\nRun the installer.', 'notes.txt': 'Plain notes.', 'blank.md': '\n' });
    const run = await runCli(['--project', projectId, '--url', running.url, '--base-url', 'https://site.example/docs', folder], {
      ADMIN_TOKEN,
    });

    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run.stdout)).toBe('Summary: imported 2 (2 documents, 0 Q&A), skipped 1, failed 0');
    expect(run.stdout).toContain('blank.md: empty file');
    const documents = await documentsOf(projectId);
    expect(documents.data.map((d) => [d.path, d.title, d.url]).sort()).toEqual([
      ['guide/install.md', 'Install', 'https://site.example/docs/guide/install'],
      ['notes.txt', 'notes', 'https://site.example/docs/notes'],
    ]);
  });

  it('imports nothing when a line is invalid, naming the lines; --skip-invalid imports the rest', async () => {
    const { projectId } = await running.createProject();
    const file = await ndjsonFile('mixed.ndjson', [
      { title: 'Returns', url: 'https://shop.example/returns', content: 'Send items back within 30 days.' },
      { title: 'Broken', url: 'not-a-url', content: 'x' },
      { question: 'Do you ship abroad?', answer: 'Yes.' },
      '{"question": ',
    ]);
    const args = ['--project', projectId, '--url', running.url, file];

    const refused = await runCli(args, { ADMIN_TOKEN });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/mixed\.ndjson:2: document: url: /);
    expect(refused.stderr).toMatch(/mixed\.ndjson:4: not valid JSON/);
    expect(refused.stderr).not.toMatch(/mixed\.ndjson:[13]/);
    expect((await documentsOf(projectId)).total).toBe(0);

    const skipping = await runCli([...args, '--skip-invalid'], { ADMIN_TOKEN });
    expect(skipping.code, skipping.stderr).toBe(0);
    expect(lastLine(skipping.stdout)).toBe('Summary: imported 2 (1 document, 1 Q&A), skipped 2, failed 0');
    expect((await documentsOf(projectId)).data.map((d) => d.title)).toEqual(['Returns']);
    const qnas = QnaList.parse(await running.admin('GET', `/projects/${projectId}/qnas`));
    expect(qnas.data.map((q) => q.question)).toEqual(['Do you ship abroad?']);
  });

  it('exits 1 and lists the reason when the server refuses an item', async () => {
    const { projectId } = await running.createProject();
    const proxy = await startLocalProxy(running.url, {
      intercept: (request, index) =>
        request.method === 'POST' && index === 2
          ? { status: 500, body: { error: { message: 'disk full', code: 'INTERNAL_SERVER_ERROR' } } }
          : undefined,
    });
    try {
      const file = await ndjsonFile('two.ndjson', [
        { title: 'One', url: 'https://site.example/one', content: 'first' },
        { title: 'Two', url: 'https://site.example/two', content: 'second' },
      ]);
      // Request 0 is the project check; 1 and 2 are the documents, sent one after the other.
      const run = await runCli(['--project', projectId, '--url', proxy.url, '--concurrency', '1', file], { ADMIN_TOKEN });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('two.ndjson:2 (Two): 500 INTERNAL_SERVER_ERROR: disk full');
      expect(lastLine(run.stdout)).toBe('Summary: imported 1 (1 document, 0 Q&A), skipped 0, failed 1');
      expect((await documentsOf(projectId)).data.map((d) => d.title)).toEqual(['One']);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a wrong token before sending anything, and validates without a server on --dry-run', async () => {
    const { projectId } = await running.createProject();
    const file = await ndjsonFile('one.ndjson', [{ title: 'Only', url: 'https://site.example/only', content: 'text' }]);

    const wrongToken = await runCli(['--project', projectId, '--url', running.url, file], { ADMIN_TOKEN: 'not-the-token' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('401');

    const dryRun = await runCli(['--project', projectId, '--url', 'http://127.0.0.1:1', '--dry-run', file]);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain('one.ndjson:1 (Only) -> https://site.example/only');
    expect(lastLine(dryRun.stdout)).toBe('Dry run: would import 1 (1 document, 0 Q&A), skipped 0; nothing was sent');
    expect((await documentsOf(projectId)).total).toBe(0);

    const usage = await runCli(['--project', projectId, file, '--concurrency', 'many']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--concurrency');
  });

  it('stops cleanly on Ctrl-C (sent to the process group): requests in flight finish, the rest is reported as interrupted', async () => {
    const { projectId } = await running.createProject();
    const proxy = await startLocalProxy(running.url, { delayMs: 300 });
    try {
      const file = await ndjsonFile(
        'many.ndjson',
        Array.from({ length: 20 }, (_, i) => ({
          title: `Page ${i + 1}`,
          url: `https://site.example/${i + 1}`,
          content: `page number ${i + 1}`,
        })),
      );
      const run = await runCli(['--project', projectId, '--url', proxy.url, '--concurrency', '1', file], { ADMIN_TOKEN }, (child) => {
        const timer = setInterval(() => {
          if (proxy.requests.filter((r) => r.method === 'POST').length >= 2) {
            clearInterval(timer);
            process.kill(-(child.pid as number), 'SIGINT');
          }
        }, 20);
        child.once('close', () => clearInterval(timer));
      });

      expect(run.code, run.stderr).toBe(130);
      const summary = /^Summary: imported (\d+) \(\d+ documents?, 0 Q&A\), skipped 0, failed 0, interrupted (\d+) \(not imported\)$/.exec(
        lastLine(run.stdout),
      );
      expect(summary, run.stdout).not.toBeNull();
      const imported = Number(summary?.[1]);
      expect(imported).toBeGreaterThanOrEqual(2);
      expect(imported + Number(summary?.[2])).toBe(20);
      expect(imported).toBeLessThan(20);
      expect((await documentsOf(projectId)).total).toBe(imported);
    } finally {
      await proxy.close();
    }
  });
});
