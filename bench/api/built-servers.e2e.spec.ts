import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServers, builtServer, startChild } from './servers';

describe('the bench servers as built by esbuild', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('run the product from its bundle, without tsx, and it answers', async () => {
    expect(builtServer('product.server.ts')).toBeNull();
    await buildServers();
    const built = builtServer('product.server.ts');
    expect(built).toMatch(/product\.server\.js$/);
    const dataDir = await mkdtemp(join(tmpdir(), 'palaver-bench-build-spec-'));
    dirs.push(dataDir);
    const product = await startChild('product.server.ts', {
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: 'false',
      ADMIN_TOKEN: 'adm_bench_build_spec',
    });
    try {
      expect(product.process.spawnargs).toContain(built);
      expect(product.process.spawnargs).not.toContain('tsx');
      const health = await fetch(`${product.url}/healthz`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { status: string }).status).toBe('ok');
      const projects = await fetch(`${product.url}/admin/v1/projects`, { headers: { authorization: 'Bearer adm_bench_build_spec' } });
      expect(projects.status).toBe(200);
    } finally {
      await product.stop();
    }
  }, 60_000);
});
