import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/config';
import type { PortName } from '../infrastructure';
import { createInfrastructure } from '../infrastructure.factory';
import type { HeapReading } from './heap-watch';

const ROOT = join(import.meta.dirname, '../../../..');

let dir: string | undefined;
afterEach(async () => {
  vi.useRealTimers();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('watchHeap in a process whose heap fills', () => {
  it("logs its warning through the product's logger before the process runs out of heap", async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-heap-'));
    const script = join(dir, 'fill.ts');
    // Holds more and more data, as embedded stores do, in a 64 MB old generation beside the services' 64 MB
    // semi-spaces (packages/launcher/src/node-flags.ts).
    await writeFile(
      script,
      `import { watchHeap } from ${JSON.stringify(join(ROOT, 'packages/platform/src/health/heap-watch.ts'))};
const held: string[] = [];
watchHeap({ intervalMs: 20 });
setInterval(() => { for (let i = 0; i < 500; i++) held.push('x'.repeat(100) + i); }, 5);
`,
    );
    // The node process itself (tsx as a loader, not a wrapper), so that the kill below reaches it.
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: {
        ...process.env,
        VITEST: '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: '--max-old-space-size=64 --max-semi-space-size=64',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const running = () => child.exitCode === null && child.signalCode === null;
    await vi.waitFor(() => expect(/heapUsedMb.*\n/.test(output) || !running()).toBe(true), { timeout: 20_000, interval: 20 });
    const stillRunning = running();
    child.kill('SIGKILL');
    await exited;

    // It warned while the process still ran (the heap not yet full), once.
    expect(stillRunning, output).toBe(true);
    expect(child.signalCode).toBe('SIGKILL');
    const warnings = output
      .split('\n')
      .filter((line) => line.includes('heapUsedMb'))
      .map((line) => JSON.parse(line) as { level: number; heapUsedMb: number; heapLimitMb: number; msg: string });
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning!.level).toBe(40);
    // The old generation's own limit: V8's heap limit (256 MB here) also counts the young generation.
    expect(warning!.heapLimitMb).toBe(64);
    expect(warning!.heapUsedMb / warning!.heapLimitMb).toBeGreaterThanOrEqual(0.7);
    expect(warning!.heapUsedMb).toBeLessThan(warning!.heapLimitMb);
    expect(warning!.msg).toContain('MONGODB_URL');
  });
});

describe('the heap watch of an infrastructure', () => {
  /** Opens the ports named, over a heap read as 90 % full, and returns the warnings and readings until closed. */
  const openOver = async (only: PortName[]) => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-heap-infra-'));
    const warnings: string[] = [];
    let readings = 0;
    const read = (): HeapReading => {
      readings += 1;
      return { used: 90, limit: 100 };
    };
    const infra = await createInfrastructure(loadConfig({ DATA_DIR: dir }), {
      only,
      heapWatch: { intervalMs: 10, read, warn: (_fields, message) => warnings.push(message) },
    });
    return { infra, warnings, readings: () => readings };
  };

  // The watch's interval on a fake clock: many intervals pass at once, and none is missed.
  it('watches the heap once an embedded store holds data in it, until closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { infra, warnings, readings } = await openOver(['documents', 'pubsub']);
    expect(warnings).toHaveLength(1);
    vi.advanceTimersByTime(50);
    expect(readings()).toBeGreaterThan(1);
    await infra.close();
    const closedAt = readings();
    vi.advanceTimersByTime(1_000);
    expect(readings()).toBe(closedAt);
  });

  it('does not watch it when no embedded store is open', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { infra, warnings, readings } = await openOver(['pubsub', 'jobs']);
    vi.advanceTimersByTime(1_000);
    expect(readings()).toBe(0);
    expect(warnings).toHaveLength(0);
    await infra.close();
  });
});
