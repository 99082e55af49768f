import { describe, expect, it } from 'vitest';
import { parseImportArgs } from './import-args';

const PROJECT = '7d7f3f38-8a32-4c55-9d1f-0a5f0b8e8a11';

describe('parseImportArgs', () => {
  it('applies the defaults and takes the token from ADMIN_TOKEN', () => {
    expect(parseImportArgs(['--project', PROJECT, 'docs.ndjson'], { ADMIN_TOKEN: 'from-env' })).toEqual({
      kind: 'run',
      args: {
        projectId: PROJECT,
        url: 'http://127.0.0.1:3000',
        token: 'from-env',
        baseUrl: undefined,
        concurrency: 4,
        dryRun: false,
        skipInvalid: false,
        target: 'docs.ndjson',
      },
    });
  });

  it('prefers --token and reads every option', () => {
    const parsed = parseImportArgs(
      [
        './docs',
        '--project',
        PROJECT,
        '--url',
        'https://palaver.example',
        '--token',
        't',
        '--base-url',
        'https://site.example/docs',
        '--concurrency',
        '8',
        '--dry-run',
        '--skip-invalid',
      ],
      { ADMIN_TOKEN: 'from-env' },
    );
    expect(parsed).toEqual({
      kind: 'run',
      args: {
        projectId: PROJECT,
        url: 'https://palaver.example',
        token: 't',
        baseUrl: 'https://site.example/docs',
        concurrency: 8,
        dryRun: true,
        skipInvalid: true,
        target: './docs',
      },
    });
  });

  it('rejects what cannot run', () => {
    const error = (argv: string[]) => {
      const parsed = parseImportArgs(argv, {});
      return parsed.kind === 'error' ? parsed.message : `not an error: ${parsed.kind}`;
    };
    expect(error(['docs'])).toMatch(/--project/);
    expect(error(['--project', PROJECT])).toMatch(/exactly one/);
    expect(error(['--project', PROJECT, 'a', 'b'])).toMatch(/exactly one/);
    expect(error(['--project', PROJECT, '--concurrency', '0', 'a'])).toMatch(/--concurrency/);
    expect(error(['--project', PROJECT, '--concurrency', '2.5', 'a'])).toMatch(/--concurrency/);
    expect(error(['--project', PROJECT, '--base-url', 'site.example', 'a'])).toMatch(/--base-url/);
    expect(error(['--project', PROJECT, '--url', 'ftp://x', 'a'])).toMatch(/--url/);
    expect(error(['--project', PROJECT, '--bogus', 'a'])).toMatch(/bogus/);
  });

  it('answers help for -h', () => {
    expect(parseImportArgs(['-h'], {})).toEqual({ kind: 'help' });
  });
});
