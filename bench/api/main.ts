/**
 * `pnpm bench:api [--duration S] [--rounds R] [--connections C] [--writers M] [--ttft N]
 *                 [--mode embedded|distributed|cluster|all] [--soak N] [--from-sources]`
 * The product's hot paths against bare Fastify answering the same shapes, in the same run:
 * embedded, then distributed (on a NATS and a Redis of the bench's own), in R rounds in which the
 * product and the baseline take turns (the median round is printed, so that a drift of a shared
 * machine's speed weighs on both sides of a ratio alike). The servers run as built by esbuild, as
 * the containers run the services, or with `--from-sources` through tsx. After the distributed
 * table, the bus floor: the same crossings of the bus with nothing else (bus-floor.server.ts).
 * `--mode cluster` (not part of `all`) runs every service in a process of its own, as
 * `pnpm start:cluster` does, and prints each one's CPU per request (docs/scaling.md).
 * `--soak N` instead opens N concurrent reply streams and reports memory per stream.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchInfra, benchInfra } from './bench-infra';
import { buildServers, builtServer } from './built-servers';
import { measureBusFloor } from './bus-floor';
import { startChild } from './child';
import { cpuProbe } from './cpu';
import { checkGoals, describeGoals, type Floors } from './goals';
import { type LoadOptions, load } from './load';
import { messagesRequest, prepareProduct } from './product.setup';
import { soak } from './soak';
import { printBusFloor, printRows, printSoak, type Row, type Scenario } from './table';
import { measureTtft } from './ttft';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    writers: { type: 'string', default: '20' },
    ttft: { type: 'string', default: '200' },
    mode: { type: 'string', default: 'all' },
    soak: { type: 'string' },
    'from-sources': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const writers = Number(values.writers);
const ttftRequests = Number(values.ttft);

const withDataDir = async <T>(task: (dir: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-bench-'));
  try {
    return await task(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** `rounds` rounds of `measure`: the round whose score is the median, and the lowest and highest score. */
const medianRound = async <T>(measure: () => Promise<T>, score: (round: T) => number) => {
  const all: T[] = [];
  for (let i = 0; i < rounds; i++) all.push(await measure());
  all.sort((a, b) => score(a) - score(b));
  return { round: all[(all.length - 1) >> 1]!, range: [score(all[0]!), score(all.at(-1)!)] as [number, number] };
};

const productEnv = (dataDir: string, env: Record<string, string>) => ({
  ...env,
  DATA_DIR: dataDir,
  PORT: '0',
  SEED_DEMO: 'false',
  ADMIN_TOKEN: `adm_bench_${Date.now()}`,
});

/** Product and baseline side by side, one scenario at a time. */
const benchMode = (mode: string, { env, servers }: BenchInfra): Promise<Row[]> =>
  withDataDir(async (dataDir) => {
    const product = await startChild(mode === 'cluster' ? 'cluster.server.ts' : 'product.server.ts', productEnv(dataDir, env));
    try {
      const fixture = await prepareProduct(product.url, product.ready.adminToken as string, writers);
      const baseline = await startChild('baseline.server.ts', { BENCH_SHAPES: JSON.stringify(fixture.shapes) });
      try {
        // A cluster's processes are its services (its supervisor only waits).
        const processes = mode === 'cluster' ? (product.ready.pids as Record<string, number>) : { product: product.process.pid! };
        const productCpu = cpuProbe(processes, servers);
        const baselineCpu = cpuProbe({ 'bare Fastify': baseline.process.pid! }, {});
        const both = async (scenario: Scenario, name: string, options: Omit<LoadOptions, 'url'>): Promise<Row> => {
          process.stderr.write(`${mode}: ${name}\n`);
          const { round, range } = await medianRound(
            async () => ({
              product: await load({ url: product.url, cpu: productCpu, ...options }),
              baseline: await load({ url: baseline.url, cpu: baselineCpu, ...options }),
            }),
            ({ product: p, baseline: b }) => (100 * p.rps) / b.rps,
          );
          return { mode, scenario, name, ...round, range };
        };
        const reads = { path: '/v2/conversations', headers: fixture.reader.headers, durationSeconds: duration };
        const init = {
          method: 'POST' as const,
          path: '/v2/identity/init',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey: fixture.publishableKey, saVid: 'bench-init' }),
          connections,
          durationSeconds: duration,
        };
        const rows = [
          await both('reads', `GET /v2/conversations (${connections} conn)`, { ...reads, connections }),
          await both('reads-1', 'GET /v2/conversations (1 conn)', { ...reads, connections: 1 }),
          await both('init', `POST /v2/identity/init (${connections} conn)`, init),
          await both('messages', `messages, ${writers} conversations in parallel`, {
            ...messagesRequest(fixture.writer),
            durationSeconds: duration,
          }),
        ];
        process.stderr.write(`${mode}: time to first text-delta\n`);
        const ttft = {
          paths: fixture.streamer.conversationIds.map((id) => `/v2/conversations/${id}/messages`),
          headers: fixture.streamer.headers,
          requests: ttftRequests,
        };
        const { round, range } = await medianRound(
          async () => ({
            product: await measureTtft({ url: product.url, ...ttft }),
            baseline: await measureTtft({ url: baseline.url, ...ttft }),
          }),
          ({ product: p, baseline: b }) => p.p50 - b.p50,
        );
        rows.push({ mode, scenario: 'ttft', name: 'time to first text-delta (streamed)', ...round, range });
        return rows;
      } finally {
        await baseline.stop();
      }
    } finally {
      await product.stop();
    }
  });

/** The product's main thread CPU ms per message in a row (one process: embedded or distributed). */
const mainThreadMs = (row: Row | undefined): number | undefined =>
  row && 'rps' in row.product ? row.product.mainThreadMsPerRequest?.product : undefined;

const modes = values.mode === 'all' ? ['embedded', 'distributed'] : [values.mode!];
if (!values['from-sources']) await buildServers();
const build = builtServer('product.server.ts') ? 'the servers built by esbuild' : 'the servers run from their sources through tsx';

if (values.soak) {
  const mode = modes[0]!;
  const infra = mode === 'cluster' ? null : await benchInfra(mode);
  if (!infra) console.error('--soak measures one product process: use --mode embedded or distributed');
  else {
    try {
      const result = await withDataDir((dataDir) => soak(Number(values.soak), productEnv(dataDir, infra.env)));
      printSoak(mode, result);
    } finally {
      await infra.release();
    }
  }
} else {
  let servicesMainThreadMsPerMessage: number | undefined;
  for (const mode of modes) {
    const infra = await benchInfra(mode);
    if (!infra) continue;
    try {
      const rows = await benchMode(mode, infra);
      printRows(rows, { duration, rounds, build });
      const floors: Floors = {};
      if (mode === 'embedded') servicesMainThreadMsPerMessage = mainThreadMs(rows.find((row) => row.scenario === 'messages'));
      if (mode === 'distributed') {
        process.stderr.write('distributed: the bus floor of a message\n');
        const floor = await withDataDir((dataDir) => measureBusFloor(infra, dataDir, writers, duration, ttftRequests));
        if (floor) {
          printBusFloor(floor, writers);
          Object.assign(floors, {
            busMainThreadMsPerMessage: floor.mainThreadMsPerMessage,
            servicesMainThreadMsPerMessage,
            busFirstFragmentP50: floor.firstFragment.p50,
          });
        }
      }
      console.log(`\n${describeGoals(checkGoals(rows, connections, floors))}`);
    } finally {
      await infra.release();
    }
  }
}
