import { parseArgs } from 'node:util';

export const IMPORT_USAGE = `Usage: pnpm import-knowledge --project <projectId> [options] <folder | file.ndjson>

Loads documents and Q&A entries into a project of a running Palaver through the admin API.

Options:
  --project <id>        the project to import into (required)
  --url <url>           the server (default http://127.0.0.1:3000)
  --token <token>       the admin token (default: the ADMIN_TOKEN environment variable)
  --base-url <url>      for a folder: document urls are this + the relative path without extension
  --concurrency <n>     requests in flight at once, 1 to 32 (default 4)
  --dry-run             read and validate only; send nothing
  --skip-invalid        import the valid items even when some lines or files are invalid
  -h, --help            this text`;

export interface ImportArgs {
  projectId: string;
  url: string;
  token: string | undefined;
  baseUrl: string | undefined;
  concurrency: number;
  dryRun: boolean;
  skipInvalid: boolean;
  target: string;
}

export type ParsedImportArgs = { kind: 'help' } | { kind: 'error'; message: string } | { kind: 'run'; args: ImportArgs };

const isHttpUrl = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

export const parseImportArgs = (argv: string[], env: Record<string, string | undefined>): ParsedImportArgs => {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: 'string' },
        url: { type: 'string', default: 'http://127.0.0.1:3000' },
        token: { type: 'string' },
        'base-url': { type: 'string' },
        concurrency: { type: 'string', default: '4' },
        'dry-run': { type: 'boolean', default: false },
        'skip-invalid': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return { kind: 'error', message: (err as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (!values.project) return { kind: 'error', message: '--project is required' };
  if (positionals.length !== 1) return { kind: 'error', message: 'give exactly one folder or NDJSON file to import' };
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    return { kind: 'error', message: '--concurrency must be an integer from 1 to 32' };
  }
  if (!isHttpUrl(values.url)) return { kind: 'error', message: `--url is not an http(s) URL: ${values.url}` };
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) return { kind: 'error', message: `--base-url is not an http(s) URL: ${baseUrl}` };
  return {
    kind: 'run',
    args: {
      projectId: values.project,
      url: values.url,
      token: values.token ?? (env.ADMIN_TOKEN || undefined),
      baseUrl,
      concurrency,
      dryRun: values['dry-run'],
      skipInvalid: values['skip-invalid'],
      target: positionals[0] as string,
    },
  };
};
