/**
 * `pnpm bench:api [--duration S] [--rounds R] [--connections C] [--writers M] [--ttft N]
 *                 [--mode embedded|distributed|cluster|all] [--soak N] [--profile] [--preempting-servers] [--from-sources]`
 * The product's hot paths against bare Fastify answering the same shapes, in the same run:
 * embedded, and distributed (NATS, Redis, BullMQ; servers of the bench's own when installed, under
 * SCHED_BATCH unless `--preempting-servers`, see bench-infra.ts), in R rounds of alternating runs
 * (the median round is printed, see rounds.ts). Its servers run as built by esbuild, as the
 * containers run the services (built-servers.ts), or with `--from-sources` through tsx.
 * After each mode's table, the disk's flush that every first delta waits for (disk-flush.ts).
 * Distributed, it then measures the floors under the message and init figures: the same
 * crossings of the bus with nothing else (bus-floor.server.ts, init-floor.server.ts).
 * `--mode cluster` (not part of `all`) runs the distributed scenarios against every service in a
 * process of its own, as `pnpm start:cluster` does, with each service's CPU per request.
 * `--soak N` instead opens N concurrent reply streams and reports memory per stream.
 * `--profile` instead profiles the product's main thread in the messages scenario and prints where
 * it goes, by module of ours and by library (profile.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchInfra, benchInfra } from './bench-infra';
import { buildServers, builtServer } from './built-servers';
import { measureFloor } from './bus-floor';
import { startChild } from './child';
import { BASELINE_PROCESS, capacity, cpuProbe } from './cpu';
import { measureDiskFlush } from './disk-flush';
import { checkGoals, describeGoals, type Floors, type Scenario } from './goals';
import { measureInitFloor } from './init-floor';
import { load } from './load';
import { messagesRequest, prepareProduct } from './product.setup';
import { profileMessages } from './profile';
import { medianRound } from './rounds';
import { soak } from './soak';
import { printBusFloor, printDiskFlush, printInitFloor, printProfile, printRows, printSoak, printStackFloor, type Row } from './table';
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
    profile: { type: 'boolean', default: false },
    'preempting-servers': { type: 'boolean', default: false },
    'from-sources': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const writers = Number(values.writers);
const ttftRequests = Number(values.ttft);
const infraOptions = { preemptingServers: values['preempting-servers'] };

const withDataDir = async <T>(task: (dir: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-bench-'));
  try {
    return await task(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const productScript = (mode: string): string => (mode === 'cluster' ? 'cluster.server.ts' : 'product.server.ts');

/** Product and baseline side by side, one scenario at a time. */
const benchMode = (mode: string, { env, servers }: BenchInfra): Promise<{ rows: Row[]; shapes: unknown; publishableKey: string }> =>
  withDataDir(async (dataDir) => {
    const product = await startChild(productScript(mode), {
      ...env,
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: 'false',
      ADMIN_TOKEN: `adm_bench_${Date.now()}`,
    });
    try {
      const fixture = await prepareProduct(product.url, product.ready.adminToken as string, writers);
      const baseline = await startChild('baseline.server.ts', { BENCH_SHAPES: JSON.stringify(fixture.shapes) });
      try {
        // A cluster's processes are its services (the supervisor only waits).
        const processes = mode === 'cluster' ? (product.ready.pids as Record<string, number>) : { product: product.process.pid! };
        const productCpu = cpuProbe(processes, servers);
        // Bare Fastify's CPU beside the product's: with the stack floor, the least a message costs before any work of ours.
        const baselineCpu = cpuProbe({ [BASELINE_PROCESS]: baseline.process.pid! }, {});
        const both = async (scenario: Scenario, name: string, options: Omit<Parameters<typeof load>[0], 'url'>): Promise<Row> => {
          process.stderr.write(`${mode}: ${name}\n`);
          const { round, range } = await medianRound(
            rounds,
            async () => ({
              product: await load({ url: product.url, cpu: productCpu, ...options }),
              baseline: await load({ url: baseline.url, cpu: baselineCpu, ...options }),
            }),
            ({ product: p, baseline: b }) => (100 * p.rps) / b.rps,
          );
          return { mode, scenario, name, ...round, range };
        };
        const rows: Row[] = [];
        rows.push(
          await both('reads', `GET /v2/conversations (${connections} conn)`, {
            path: '/v2/conversations',
            headers: fixture.reader.headers,
            connections,
            durationSeconds: duration,
          }),
        );
        rows.push(
          await both('reads-1', 'GET /v2/conversations (1 conn)', {
            path: '/v2/conversations',
            headers: fixture.reader.headers,
            connections: 1,
            durationSeconds: duration,
          }),
        );
        rows.push(await both('init', `POST /v2/identity/init (${connections} conn)`, initRequest(fixture.publishableKey)));
        rows.push(
          await both('messages', `messages, ${writers} conversations in parallel`, {
            ...messagesRequest(fixture.writer),
            durationSeconds: duration,
          }),
        );
        process.stderr.write(`${mode}: time to first text-delta\n`);
        const ttft = {
          paths: fixture.streamer.conversationIds.map((id) => `/v2/conversations/${id}/messages`),
          headers: fixture.streamer.headers,
          requests: ttftRequests,
        };
        const { round, range } = await medianRound(
          rounds,
          async () => ({
            product: await measureTtft({ url: product.url, ...ttft }),
            baseline: await measureTtft({ url: baseline.url, ...ttft }),
          }),
          ({ product: p, baseline: b }) => p.p50 - b.p50,
        );
        rows.push({ mode, scenario: 'ttft', name: 'time to first text-delta (streamed)', ...round, range });
        return { rows, shapes: fixture.shapes, publishableKey: fixture.publishableKey };
      } finally {
        await baseline.stop();
      }
    } finally {
      await product.stop();
    }
  });

const initRequest = (publishableKey: string) => ({
  method: 'POST' as const,
  path: '/v2/identity/init',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ apiKey: publishableKey, saVid: 'bench-init' }),
  connections,
  durationSeconds: duration,
});

/**
 * The product's own processes' CPU per request in a row (not the load generator's, nor the
 * servers'), or with `mainThreads` their main threads' alone.
 */
const productCpuMs = (row: Row | undefined, mainThreads = false): number | undefined => {
  if (!row || !('rps' in row.product)) return undefined;
  const { cpuMsPerRequest, mainThreadMsPerRequest, productProcesses } = row.product;
  const cpu = mainThreads ? mainThreadMsPerRequest : cpuMsPerRequest;
  return cpu && productProcesses ? productProcesses.reduce((sum, name) => sum + (cpu[name] ?? 0), 0) : undefined;
};

const modes = values.mode === 'all' ? ['embedded', 'distributed'] : [values.mode!];
// The servers run as built, as the containers run the services, unless `--from-sources` (through tsx).
if (!values['from-sources']) await buildServers();
/** How a mode's product ran, for its table (the cluster's services always run from their sources). */
const productRun = (mode: string): string =>
  builtServer(productScript(mode)) ? 'the servers built by esbuild' : 'the product run from its sources through tsx';

if ((values.soak || values.profile) && modes.includes('cluster')) {
  console.error('--soak and --profile measure one product process: use --mode embedded, distributed or all');
  process.exitCode = 2;
} else if (values.profile) {
  for (const mode of modes) {
    const infra = await benchInfra(mode, infraOptions);
    if (!infra) continue;
    try {
      process.stderr.write(`${mode}: messages, profiled\n`);
      const result = await withDataDir((dataDir) =>
        profileMessages(mode, { ...infra.env, DATA_DIR: dataDir }, infra.servers, writers, duration),
      );
      printProfile(mode, writers, duration, result, productRun(mode));
    } finally {
      await infra.release();
    }
  }
} else if (values.soak) {
  const mode = modes[0]!;
  const infra = await benchInfra(mode, infraOptions);
  if (infra) {
    try {
      const result = await withDataDir((dataDir) =>
        soak(Number(values.soak), {
          ...infra.env,
          DATA_DIR: dataDir,
          PORT: '0',
          SEED_DEMO: 'false',
          ADMIN_TOKEN: `adm_soak_${Date.now()}`,
        }),
      );
      printSoak(mode, result);
    } finally {
      await infra.release();
    }
  }
} else {
  // Each mode's table is printed as soon as it is measured.
  let servicesCpuMsPerMessage: number | undefined;
  let servicesMainThreadMsPerMessage: number | undefined;
  for (const mode of modes) {
    const infra = await benchInfra(mode, infraOptions);
    if (!infra) continue;
    try {
      const { rows, shapes, publishableKey } = await benchMode(mode, infra);
      printRows(rows, { duration, connections, rounds, scheduling: infra.scheduling, build: productRun(mode) });
      if (mode === 'embedded') {
        const messages = rows.find((row) => row.scenario === 'messages');
        servicesCpuMsPerMessage = productCpuMs(messages);
        servicesMainThreadMsPerMessage = productCpuMs(messages, true);
      }
      const disk = await withDataDir((dataDir) => measureDiskFlush(dataDir, ttftRequests));
      printDiskFlush(disk);
      const floors: Floors = { diskFlushP50: disk.p50 };
      // The floors publish to the event stream and leave a durable consumer and sessions: only on servers of the bench's own.
      if (mode === 'distributed' && infra.ownServers) {
        process.stderr.write('distributed: the bus floor of a message\n');
        const floor = await withDataDir((dataDir) => measureFloor('bus-floor.server.ts', infra, dataDir, writers, duration, ttftRequests));
        if (floor) {
          printBusFloor(floor, writers);
          floors.busCpuMsPerMessage = capacity(floor.cpuMsPerMessage).cpuMs;
          floors.servicesCpuMsPerMessage = servicesCpuMsPerMessage;
          floors.busMainThreadMsPerMessage = floor.mainThreadMsPerMessage;
          floors.servicesMainThreadMsPerMessage = servicesMainThreadMsPerMessage;
          floors.busFirstFragmentP50 = floor.firstFragment.p50;
        }
        process.stderr.write('distributed: the stack floor of a message\n');
        const stack = await withDataDir((dataDir) =>
          measureFloor('stack-floor.server.ts', infra, dataDir, writers, duration, ttftRequests),
        );
        if (stack) {
          printStackFloor(stack, writers);
          floors.stackCpuMsPerMessage = capacity(stack.cpuMsPerMessage).cpuMs;
        }
        process.stderr.write('distributed: the bus floor of an init\n');
        // The product's request, though the floor resolves no key.
        const init = await withDataDir((dataDir) => measureInitFloor(infra, dataDir, shapes, initRequest(publishableKey), rounds));
        const product = rows.find((row) => row.scenario === 'init');
        if (init) printInitFloor(init, product);
      }
      console.log(`\n${describeGoals(checkGoals(rows, connections, floors))}`);
    } finally {
      await infra.release();
    }
  }
}
