/**
 * `pnpm bench:api [--duration S] [--rounds R] [--connections C] [--writers M] [--ttft N]
 *   [--mode embedded|distributed|cluster|all] [--tracing] [--soak N] [--from-sources]`
 * The product's hot paths against bare Fastify answering the same shapes, in the same run, the two
 * taking turns for R rounds (the median round is printed, so a drift of a shared machine's speed
 * weighs on both sides of a ratio alike). `all` is embedded then distributed (on a NATS and a
 * Redis of the bench's own), the latter followed by its bus floor; `cluster` runs each service in
 * a process of its own and reports each one's CPU per request. `--tracing` adds a second product
 * exporting its traces to a local OTLP sink, taking its turn in the same rounds of the reads,
 * messages and first-delta scenarios; `--soak N` measures memory per open stream.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { withTempDir } from '../common';
import { measureBusFloor } from './bus-floor';
import { type CpuProbe, cpuProbe } from './cpu';
import { checkGoals, describeGoals, type Floors } from './goals';
import { type LoadOptions, type LoadResult, load, measureTtft, type TtftResult } from './measure';
import { type OtlpSink, startOtlpSink } from './otlp-sink';
import { call, type ProductFixture, prepareProduct, QUESTION, type Visitor } from './product.setup';
import { type BenchChild, type BenchInfra, benchInfra, buildServers, builtServer, startChild } from './servers';
import { soak } from './soak';
import { printBusFloor, printRows, printSoak, printTracing, type Row, type Scenario, type TracingRow } from './table';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    writers: { type: 'string', default: '20' },
    ttft: { type: 'string', default: '200' },
    mode: { type: 'string', default: 'all' },
    soak: { type: 'string' },
    tracing: { type: 'boolean', default: false },
    'from-sources': { type: 'boolean', default: false },
  },
});
const [duration, rounds, connections, writers, ttftRequests] = [
  values.duration,
  values.rounds,
  values.connections,
  values.writers,
  values.ttft,
].map(Number) as [number, number, number, number, number];

type Result = LoadResult | TtftResult;
interface Plan {
  scenario: Scenario;
  name: string;
  measure(url: string, cpu: CpuProbe | null): Promise<Result>;
}

const plans = ({ reader, writer, streamer, publishableKey }: ProductFixture): Plan[] => {
  const onLoad = (options: Omit<LoadOptions, 'url' | 'cpu' | 'durationSeconds'>) => (url: string, cpu: CpuProbe | null) =>
    load({ url, cpu, durationSeconds: duration, ...options });
  const json = { 'content-type': 'application/json' };
  const messages = (visitor: Visitor) => visitor.conversationIds.map((id) => `/v2/conversations/${id}/messages`);
  const reads = { path: '/v2/conversations', headers: reader.headers };
  const init = {
    method: 'POST' as const,
    path: '/v2/identity/init',
    headers: json,
    body: JSON.stringify({ apiKey: publishableKey, saVid: 'bench-init' }),
  };
  // Each writer connection posts to a conversation of its own (non-streamed).
  const write = {
    method: 'POST' as const,
    headers: { ...writer.headers, ...json },
    body: JSON.stringify(QUESTION),
    paths: messages(writer),
  };
  const ttft = (url: string) => measureTtft(url, messages(streamer), streamer.headers, ttftRequests);
  return [
    { scenario: 'reads', name: `GET /v2/conversations (${connections} conn)`, measure: onLoad({ ...reads, connections }) },
    { scenario: 'reads-1', name: 'GET /v2/conversations (1 conn)', measure: onLoad({ ...reads, connections: 1 }) },
    { scenario: 'init', name: `POST /v2/identity/init (${connections} conn)`, measure: onLoad({ ...init, connections }) },
    { scenario: 'messages', name: `messages, ${writers} conversations in parallel`, measure: onLoad({ ...write, connections: writers }) },
    { scenario: 'ttft', name: 'time to first text-delta (streamed)', measure: ttft },
  ];
};

/** The round whose score is the median, and the lowest and highest score. */
const medianOf = <T>(all: T[], score: (round: T) => number): [T, [number, number]] => {
  const sorted = [...all].sort((a, b) => score(a) - score(b));
  return [sorted[(sorted.length - 1) >> 1]!, [score(sorted[0]!), score(sorted.at(-1)!)]];
};

/** The product against the baseline: the ratio of req/s, or the ms added to the first delta. */
const score = ({ product: p, baseline: b }: { product: Result; baseline: Result }) =>
  'rps' in p && 'rps' in b ? (100 * p.rps) / b.rps : p.p50 - b.p50;

/** A running product of a mode, prepared for the scenarios. */
interface Product {
  child: BenchChild;
  fixture: ProductFixture;
  cpu: CpuProbe | null;
}

const productEnv = (dataDir: string) => ({ DATA_DIR: dataDir, PORT: '0', SEED_DEMO: 'false', ADMIN_TOKEN: `adm_bench_${Date.now()}` });

/** Runs the product of a mode (on a fresh data dir, with `env` added), prepares it, and hands it to `task`. */
const withProduct = <T>(mode: string, infra: BenchInfra, env: Record<string, string>, task: (product: Product) => Promise<T>) =>
  withTempDir(async (dataDir) => {
    const cluster = mode === 'cluster';
    const child = await startChild('product.server.ts', { ...productEnv(dataDir), ...infra.env, ...env, BENCH_CLUSTER: String(cluster) });
    try {
      const fixture = await prepareProduct(child.url, child.ready.adminToken as string, writers);
      // A cluster's processes are its services (its supervisor only waits).
      const processes = cluster ? (child.ready.pids as Record<string, number>) : { product: child.process.pid! };
      return await task({ child, fixture, cpu: cpuProbe(processes, infra.servers) });
    } finally {
      await child.stop();
    }
  });

/** The scenarios run again, in the same rounds, on a second product exporting its traces. */
const TRACED: Scenario[] = ['reads', 'messages', 'ttft'];

/**
 * With a sink, a second product traced into it takes its turn in each round of the TRACED
 * scenarios, on a NATS and a Redis of its own (two products on one bus would answer each other's requests).
 */
const benchMode = async (mode: string, infra: BenchInfra, sink: OtlpSink | null) => {
  const tracedInfra = sink && (await benchInfra(mode));
  try {
    return await withProduct(mode, infra, {}, (product) =>
      sink && tracedInfra
        ? withProduct(mode, tracedInfra, sink.env, (traced) => compare(mode, product, { traced, sink }))
        : compare(mode, product, null),
    );
  } finally {
    await tracedInfra?.release();
  }
};

const compare = async (mode: string, product: Product, tracing: { traced: Product; sink: OtlpSink } | null) => {
  const baseline = await startChild('baseline.server.ts', { BENCH_SHAPES: JSON.stringify(product.fixture.shapes) });
  try {
    const baselineCpu = cpuProbe({ 'bare Fastify': baseline.process.pid! }, {});
    const tracedPlans = tracing && plans(tracing.traced.fixture);
    const rows: Row[] = [];
    const traced: TracingRow[] = [];
    for (const [i, { scenario, name, measure }] of plans(product.fixture).entries()) {
      process.stderr.write(`${mode}: ${name}\n`);
      const pairs: Array<{ product: Result; baseline: Result }> = [];
      const on: Result[] = [];
      for (let round = 0; round < rounds; round++) {
        pairs.push({ product: await measure(product.child.url, product.cpu), baseline: await measure(baseline.url, baselineCpu) });
        if (tracing && TRACED.includes(scenario)) on.push(await tracedPlans![i]!.measure(tracing.traced.child.url, tracing.traced.cpu));
      }
      const [median, range] = medianOf(pairs, score);
      const row = { mode, scenario, name, ...median, range } as Row;
      rows.push(row);
      if (on.length > 0) traced.push({ off: row, on: medianOf(on, (r) => ('rps' in r ? r.rps : r.p50))[0] });
    }
    return { rows, traced, exported: tracing && (await exportedPerMessage(tracing.traced, tracing.sink)) };
  } finally {
    await baseline.stop();
  }
};

/** Waits until the sink has had no export for longer than the batch processor's default delay. */
const quiet = async (counts: { requests: number }) => {
  for (let last = -1; last !== counts.requests; ) {
    last = counts.requests;
    await sleep(6_000);
  }
};

/** What one message exports: a few sent one at a time between two quiet spells of the sink. */
const exportedPerMessage = async ({ child, fixture }: Product, sink: OtlpSink) => {
  const count = 20;
  await quiet(sink.counts);
  const before = { ...sink.counts };
  const path = `/v2/conversations/${fixture.writer.conversationIds[0]}/messages`;
  for (let i = 0; i < count; i++) await call(`${child.url}${path}`, 'POST', fixture.writer.headers, { content: 'Hi' });
  await quiet(sink.counts);
  return { spans: (sink.counts.spans - before.spans) / count, bytes: (sink.counts.bytes - before.bytes) / count };
};

const modes = values.mode === 'all' ? ['embedded', 'distributed'] : [values.mode!];
if (!values['from-sources']) await buildServers();
const build = builtServer('product.server.ts') ? 'the servers built by esbuild' : 'the servers run from their sources through tsx';

/** The embedded product's main thread CPU ms per message: the services' own work, beside the bus floor. */
let servicesMs: number | undefined;
for (const mode of modes) {
  const infra = await benchInfra(mode);
  if (!infra) continue;
  try {
    if (values.soak) {
      if (mode === 'cluster') console.error('--soak measures one product process: use --mode embedded or distributed');
      else printSoak(mode, await withTempDir((dir) => soak(Number(values.soak), { ...productEnv(dir), ...infra.env })));
      break;
    }
    const sink = values.tracing ? await startOtlpSink() : null;
    const { rows, traced, exported } = await benchMode(mode, infra, sink).finally(() => sink?.close());
    printRows(rows, { duration, rounds, build });
    const floors: Floors = {};
    if (mode === 'distributed') {
      process.stderr.write('distributed: the bus floor of a message\n');
      const floor = await withTempDir((dataDir) => measureBusFloor(infra, dataDir, writers, duration, ttftRequests));
      if (floor) {
        printBusFloor(floor, writers);
        Object.assign(floors, { busMainThreadMsPerMessage: floor.mainThreadMsPerMessage, busFirstFragmentP50: floor.firstFragment.p50 });
      }
    }
    const messages = rows.find((row) => row.scenario === 'messages')?.product;
    if (mode === 'embedded' && messages && 'rps' in messages) servicesMs = messages.mainThreadMsPerRequest?.product;
    floors.servicesMainThreadMsPerMessage = servicesMs;
    console.log(`\n${describeGoals(checkGoals(rows, connections, floors))}`);
    if (sink && exported) printTracing(mode, traced, { ...exported, total: sink.counts });
  } finally {
    await infra.release();
  }
}
