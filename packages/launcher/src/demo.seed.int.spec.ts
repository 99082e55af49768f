import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdentityMessages } from '@palaver/contracts';
import { createInfrastructure, type Infrastructure, loadConfig, type RunningService } from '@palaver/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentialsPath, seedDemo } from './demo.seed';
import { startAllServices } from './start-all-services';

describe('seedDemo', () => {
  let dir: string;
  let infra: Infrastructure;
  let services: RunningService[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-seed-'));
    infra = await createInfrastructure(loadConfig({ DATA_DIR: join(dir, 'stores'), SEED_DEMO: 'false' }));
    services = await startAllServices(infra);
  });
  afterAll(async () => {
    for (const service of services.reverse()) await service.close();
    await infra.close();
    await rm(dir, { recursive: true, force: true });
  });

  const projectCount = async () => (await infra.services.send(IdentityMessages.listProjects, {})).data.length;

  it('creates nothing when it cannot keep the keys (DATA_DIR not writable), and says so', async () => {
    // A folder below a plain file can be neither created nor written, whoever runs the test (even root).
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    await expect(seedDemo(infra.services, join(file, 'data'))).rejects.toThrow(/cannot write the demo's keys in DATA_DIR/);
    expect(await projectCount()).toBe(0);
  });

  it('seeds once, keeps the keys (mode 600) and gives the same keys on every later run', async () => {
    const dataDir = join(dir, 'seed-volume');
    const first = await seedDemo(infra.services, dataDir);
    expect(first).toMatchObject({ publishableKey: expect.stringMatching(/^pk_/), privateKey: expect.stringMatching(/^sk_/) });
    expect((await stat(demoCredentialsPath(dataDir))).mode & 0o777).toBe(0o600);
    expect(await seedDemo(infra.services, dataDir)).toEqual(first);
    expect(await projectCount()).toBe(1);
    // Without its keys file, a later run seeds nothing more (the keys cannot be shown again).
    await rm(demoCredentialsPath(dataDir));
    expect(await seedDemo(infra.services, dataDir)).toBeNull();
    expect(await projectCount()).toBe(1);
  });
});
