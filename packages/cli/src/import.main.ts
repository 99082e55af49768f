import { resolve } from 'node:path';
import type { ImportSources } from '@palaver/knowledge-formats';
import { Presets, SingleBar } from 'cli-progress';
import { AdminClient } from './admin-client';
import { IMPORT_USAGE, type ImportArgs, parseImportArgs } from './import-args';
import { readSources } from './import-sources';
import { dryRunReport, importReport, invalidReport, skippedOf } from './import-summary';
import { importItems } from './importer';

const DUPLICATE_SIGINT_MS = 1000;

/** `pnpm import-knowledge` runs in the workspace root; a relative path means the user's directory (INIT_CWD). */
const invocationDir = (): string =>
  process.env.npm_lifecycle_event === 'import' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();

/** Exit codes: 0 all imported, 1 something failed or was invalid, 2 usage error, 130 stopped by Ctrl-C. */
const run = async (args: ImportArgs): Promise<number> => {
  let sources: ImportSources;
  try {
    sources = await readSources(resolve(invocationDir(), args.target), { baseUrl: args.baseUrl });
  } catch (err) {
    console.error(`Cannot read ${args.target}: ${(err as Error).message}`);
    return 2;
  }
  if (sources.ignoredFiles) console.log(`Ignored ${sources.ignoredFiles} file(s) that are not .md, .markdown, .txt or .html`);
  if (sources.invalid.length && !args.skipInvalid) {
    console.error(invalidReport(sources));
    return 1;
  }
  if (args.dryRun) {
    console.log(dryRunReport(sources, args.skipInvalid));
    return 0;
  }
  if (!args.token) {
    console.error('An admin token is required: --token <token> or the ADMIN_TOKEN environment variable');
    return 2;
  }

  const client = new AdminClient({ url: args.url, token: args.token });
  try {
    await client.getProject(args.projectId);
  } catch (err) {
    console.error(`Cannot import into project ${args.projectId}: ${(err as Error).message}`);
    return 1;
  }

  const stop = new AbortController();
  let stoppedAt = 0;
  const onSigint = () => {
    // One Ctrl-C can arrive more than once: from the terminal and relayed by tsx or pnpm.
    if (stop.signal.aborted) {
      if (Date.now() - stoppedAt > DUPLICATE_SIGINT_MS) process.exit(130);
      return;
    }
    stoppedAt = Date.now();
    stop.abort();
    process.stderr.write('\nStopping: no new items start; waiting for the requests in flight (Ctrl-C again quits at once)\n');
  };
  process.on('SIGINT', onSigint);

  const bar = new SingleBar(
    { format: 'Importing [{bar}] {percentage}% | {value}/{total} | failed {failed} | retries {retries}', hideCursor: true },
    Presets.shades_classic,
  );
  let failed = 0;
  let retries = 0;
  bar.start(sources.items.length, 0, { failed, retries });
  const report = await importItems(
    client,
    sources.items,
    { projectId: args.projectId, concurrency: args.concurrency, signal: stop.signal },
    {
      onItemDone: (outcome, { done }) => {
        if (!outcome.ok) failed++;
        bar.update(done, { failed, retries });
      },
      onRetry: () => {
        retries++;
        bar.update({ failed, retries });
      },
    },
  ).finally(() => {
    bar.stop();
    process.off('SIGINT', onSigint);
  });

  console.log(importReport(report, skippedOf(sources, args.skipInvalid)));
  if (report.interrupted.length) return 130;
  return report.failed.length ? 1 : 0;
};

const parsed = parseImportArgs(process.argv.slice(2), process.env);
if (parsed.kind === 'help') {
  console.log(IMPORT_USAGE);
} else if (parsed.kind === 'error') {
  console.error(`${parsed.message}\n\n${IMPORT_USAGE}`);
  process.exitCode = 2;
} else {
  process.exitCode = await run(parsed.args);
}
