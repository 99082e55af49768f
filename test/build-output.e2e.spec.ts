import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildApp, isAlive, startChildApp } from './support/child-app';

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);

/**
 * `pnpm build` then `node dist/<service>.js` from this checkout, installed as the README installs
 * it (pnpm's isolated layout, where most third-party packages are not in the root's node_modules).
 * The build goes to a temporary folder (`--outdir`) so that it leaves the checkout's dist/ alone,
 * and the built service runs from another folder than the checkout, as a container would.
 */
describe('the build output (pnpm build)', () => {
  let dir: string;
  let app: ChildApp | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-build-output-'));
    await run(process.execPath, [join(ROOT, 'scripts/build-services.mjs'), '--outdir', join(dir, 'dist')], { cwd: ROOT });
  }, 60_000);

  afterAll(async () => {
    if (app && isAlive(app.process.pid!)) await app.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the embedded product with plain node, answers its health check, and stops on SIGTERM', async () => {
    app = await startChildApp(
      { DATA_DIR: join(dir, 'data'), ADMIN_TOKEN: 'adm_build_output_spec', SEED_DEMO: 'false', NODE_ENV: 'production' },
      [join(dir, 'dist/embedded.js')],
      dir,
    );
    expect(app.process.spawnargs).not.toContain('tsx');
    const health = await fetch(`${app.url}/healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');

    // The containers' health check, built too: exits 0 once the gateway on PORT answers.
    const port = new URL(app.url).port;
    const check = await run(process.execPath, [join(dir, 'dist/healthcheck.js'), 'gateway'], {
      cwd: dir,
      env: { ...process.env, PORT: port },
    });
    expect(check.stderr).toBe('');

    const pid = app.process.pid!;
    await app.kill('SIGTERM');
    expect(isAlive(pid)).toBe(false);
  }, 60_000);
});
