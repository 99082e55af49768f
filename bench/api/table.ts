import { cpus, totalmem } from 'node:os';
import { type BusFloorResult, FLOOR_PROCESS } from './bus-floor';
import { BASELINE_PROCESS, capacity } from './cpu';
import type { DiskFlushResult } from './disk-flush';
import { checkSoakGoal, describeGoals, type Scenario } from './goals';
import type { InitFloorResult } from './init-floor';
import type { LoadResult } from './load';
import type { ProfileResult } from './profile';
import { foldSmall } from './profile-attribution';
import type { SoakResult } from './soak';
import type { TtftResult } from './ttft';

/** One scenario's median round; `range`: the lowest and highest score (ratio, or added p50) of all rounds. */
export type Row = { mode: string; scenario: Scenario; name: string; range: [number, number] } & (
  | { product: LoadResult; baseline: LoadResult }
  | { product: TtftResult; baseline: TtftResult }
);

/** autocannon reports whole milliseconds: 0 means under 1 ms. */
const ms = (value: number): string =>
  !Number.isFinite(value) ? '-' : value === 0 ? '<1 ms' : `${value.toFixed(Math.abs(value) < 10 ? 1 : 0)} ms`;
const perSecond = (value: number): string => value.toFixed(0);
/** A difference of latencies, with its sign. */
const added = (value: number): string => `${value < 0 ? '-' : '+'}${ms(Math.abs(value))}`;

const machine = (): string =>
  `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;

/** One markdown table: the product, the baseline, and how the product compares (ratio or added latency). */
export const printRows = (
  rows: Row[],
  settings: { duration: number; connections: number; rounds: number; scheduling?: string; build?: string },
): void => {
  const scheduling = [settings.build, settings.scheduling]
    .filter(Boolean)
    .map((part) => `, ${part}`)
    .join('');
  const lines = [
    `pnpm bench:api, ${new Date().toISOString().slice(0, 16)}Z, ${machine()}, ${settings.duration} s per run, ${settings.rounds} rounds (product and baseline in turn; the median round shown, the rounds' range in brackets)${scheduling}`,
    '',
    '| mode | scenario | product req/s | p50 | p99 | bare Fastify req/s | p50 | p99 | product vs bare |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const row of rows) {
    const { product: p, baseline: b } = row;
    const [low, high] = row.range;
    const spread = settings.rounds > 1 ? (unit: (v: number) => string) => ` (${unit(low)} to ${unit(high)})` : () => '';
    if ('rps' in p && 'rps' in b) {
      const failed = p.failed + b.failed > 0 ? ` (failed: ${p.failures || 0} / ${b.failures || 0})` : '';
      lines.push(
        `| ${row.mode} | ${row.name} | ${perSecond(p.rps)} | ${ms(p.p50)} | ${ms(p.p99)} | ${perSecond(b.rps)} | ${ms(b.p50)} | ${ms(b.p99)} | ${((100 * p.rps) / b.rps).toFixed(1)} %${spread((v) => `${v.toFixed(1)} %`)}${failed} |`,
      );
    } else if ('count' in p && 'count' in b) {
      const failed = p.failed + b.failed > 0 ? ` (failed: ${p.failed} / ${b.failed})` : '';
      lines.push(
        `| ${row.mode} | ${row.name}, ${p.count} sequential | - | ${ms(p.p50)} | ${ms(p.p99)} | - | ${ms(b.p50)} | ${ms(b.p99)} | ${added(p.p50 - b.p50)} p50${spread(added)}, ${added(p.p99 - b.p99)} p99${failed} |`,
      );
    }
  }
  const costs = rows.flatMap((row) =>
    'rps' in row.product && row.product.cpuMsPerRequest
      ? [{ row, cpu: row.product.cpuMsPerRequest, settle: row.product.settleSeconds ?? 0 }]
      : [],
  );
  if (costs.length > 0) {
    lines.push(
      '',
      `CPU per answered request (user + system, over the counted run and until the product was idle again, so work it put off counts; "preempted": the times the main thread was taken off its core while it still had work), and the throughput those costs allow on this machine; then bare Fastify's own for the same request:`,
      '',
    );
    for (const { row, cpu, settle } of costs) {
      const { cpuMs, perSecond: allowed } = capacity(cpu);
      // A cluster's services that took no part (under 0.005 ms) are left out.
      const mainThreads = 'rps' in row.product ? (row.product.mainThreadMsPerRequest ?? {}) : {};
      const preempted = 'rps' in row.product ? (row.product.mainThreadPreemptionsPerRequest ?? {}) : {};
      const parts = Object.entries(cpu)
        .filter(([, value]) => value >= 0.005)
        .map(([name, value]) => {
          const main = mainThreads[name];
          const times = preempted[name] === undefined ? '' : `, preempted ${preempted[name]!.toFixed(2)} times`;
          return `${name} ${value.toFixed(2)} ms${main === undefined ? '' : ` (main thread ${main.toFixed(2)}${times})`}`;
        });
      const after = settle >= 0.5 ? `; the product worked ${settle.toFixed(1)} s past the run` : '';
      const bare = 'rps' in row.baseline ? row.baseline.cpuMsPerRequest : undefined;
      const bareCosts = bare
        ? `; ${Object.entries(bare)
            .map(([name, value]) => `${name === BASELINE_PROCESS ? name : `its ${name}`} ${value.toFixed(2)} ms`)
            .join(', ')}, in all ${capacity(bare).cpuMs.toFixed(2)} ms`
        : '';
      lines.push(
        `- ${row.mode}, ${row.name}: ${parts.join(', ')}; in all ${cpuMs.toFixed(2)} ms, so at most ${perSecond(allowed)}/s on ${cpus().length} cores${after}${bareCosts}`,
      );
    }
  }
  console.log(lines.join('\n'));
};

/** A floor's throughput and CPU per message, and what that CPU allows on this machine's cores. */
const floorCosts = (floor: BusFloorResult, concurrency: number): string => {
  const { cpuMs, perSecond: allowed } = capacity(floor.cpuMsPerMessage);
  const parts = Object.entries(floor.cpuMsPerMessage).map(([name, value]) => {
    const mainThread = name === FLOOR_PROCESS ? ` (main thread ${floor.mainThreadMsPerMessage.toFixed(2)})` : '';
    return `${name} ${value.toFixed(2)} ms${mainThread}`;
  });
  return `${concurrency} at a time: ${perSecond(floor.rps)}/s; CPU per message: ${parts.join(', ')}; in all ${cpuMs.toFixed(2)} ms, so at most ${perSecond(allowed)}/s on ${cpus().length} cores`;
};

/** The bus floor (bus-floor.server.ts) beside the distributed table. */
export const printBusFloor = (floor: BusFloorResult, concurrency: number): void => {
  console.log(
    [
      '',
      `Bus floor: a message's crossings of NATS, JetStream, BullMQ and Redis through the product's adapters, handlers doing nothing else, ${floorCosts(floor, concurrency)} before any work of the services. One message at a time (${floor.firstFragment.count}), its first fragment comes ${ms(floor.firstFragment.p50)} p50, ${ms(floor.firstFragment.p99)} p99 after the command: the bus's part of the distributed first delta.`,
    ].join('\n'),
  );
};

/** The stack floor (stack-floor.server.ts) beside the distributed table, under the bus floor. */
export const printStackFloor = (floor: BusFloorResult, concurrency: number): void => {
  console.log(
    `Stack floor: the same crossings with nats.js, BullMQ and ioredis alone (no Nest, none of the product's adapters; nats.js without its async stack traces, as the product runs it), ${floorCosts(floor, concurrency)}: what the stack itself costs for the design's crossings. Its first fragment, one message at a time, ${ms(floor.firstFragment.p50)} p50.`,
  );
};

/** The disk's flush (disk-flush.ts) beside a mode's table: the part of its first delta no product work is in. */
export const printDiskFlush = (disk: DiskFlushResult): void => {
  console.log(
    `\nDisk: a durable append through the product's log (1 KB, one at a time, ${disk.count} of them) took ${ms(disk.p50)} p50, ${ms(disk.p99)} p99: every first delta waits for one, as a reply starts only once its message is on disk.`,
  );
};

/**
 * The init floor (init-floor.server.ts) beside the distributed table, and what the product's
 * distributed init (`product`, its row) spends beyond it.
 */
export const printInitFloor = (init: InitFloorResult, product: Row | undefined): void => {
  const { floor, baseline, range } = init;
  const cpu = floor.cpuMsPerRequest ?? {};
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  const parts = Object.entries(cpu).map(([name, value]) => `${name} ${value.toFixed(3)} ms`);
  const ratio = (100 * floor.rps) / baseline.rps;
  const spread = range[0] === range[1] ? '' : ` (${range[0].toFixed(1)} % to ${range[1].toFixed(1)} %)`;
  const lines = [
    '',
    `Init floor: bare Fastify answering the init after its crossings (a request over NATS to a Nest handler that writes a session to Redis), nothing else: ${perSecond(floor.rps)}/s, p99 ${ms(floor.p99)}, against bare Fastify's ${perSecond(baseline.rps)}/s: ${ratio.toFixed(1)} %${spread}; CPU per init: ${parts.join(', ')}; in all ${total.toFixed(3)} ms.`,
  ];
  if (product && 'rps' in product.product && product.product.cpuMsPerRequest) {
    const own = product.product.cpuMsPerRequest.product ?? 0;
    const floorOwn = cpu[FLOOR_PROCESS] ?? 0;
    lines.push(
      `The product's distributed init answered ${((100 * product.product.rps) / floor.rps).toFixed(1)} % of the floor's inits; its process spent ${own.toFixed(3)} ms per init, ${(own - floorOwn).toFixed(3)} ms more than the floor's.`,
    );
  }
  console.log(lines.join('\n'));
};

export const printSoak = (mode: string, r: SoakResult): void => {
  console.log(
    [
      `pnpm bench:api --soak ${r.streams}, ${new Date().toISOString().slice(0, 16)}Z, ${machine()}`,
      '',
      '| mode | streams | open at once | completed | dropped | heap+external per stream (with its stored exchange) | held while open | RSS per stream |',
      '|---|--:|--:|--:|--:|--:|--:|--:|',
      `| ${mode} | ${r.streams} | ${r.opened} | ${r.completed} | ${r.dropped} | ${r.heapPerStreamKb.toFixed(1)} KB | ${r.openPerStreamKb.toFixed(1)} KB | ${r.rssPerStreamKb.toFixed(1)} KB |`,
      '',
      `Then ${r.liveOpened} of ${r.liveStreams} visitor live event streams open at once, idle: the product spent ${r.liveIdleCpuPercent === null ? '-' : r.liveIdleCpuPercent.toFixed(1)} % of a core.`,
      ...goalLines(mode, r),
    ].join('\n'),
  );
};

/** Owners below this share of the profile print as one line each of ours, the libraries' and the runtime's. */
const PROFILE_MIN_SHARE = 0.01;

/** Each process's CPU per message and, together, the messages/s they allow on this machine's cores. */
const cpuLine = (cpuMsPerMessage: Record<string, number>): string => {
  const { cpuMs, perSecond: allowed } = capacity(cpuMsPerMessage);
  const each = Object.entries(cpuMsPerMessage).map(([name, value]) => `${name} ${value.toFixed(2)} ms`);
  return `CPU per message over the same run: ${each.join(', ')}; in all ${cpuMs.toFixed(2)} ms, so at most ${perSecond(allowed)}/s on ${cpus().length} cores.`;
};

export const printProfile = (mode: string, writers: number, durationSeconds: number, r: ProfileResult, build: string): void => {
  const perMessage = r.mainThreadMsPerMessage;
  const cost = (share: number) => (perMessage === undefined ? '-' : `${(share * perMessage).toFixed(3)} ms`);
  const percent = (share: number) => `${(100 * share).toFixed(1)} %`;
  console.log(
    [
      `pnpm bench:api --profile, ${mode}, ${new Date().toISOString().slice(0, 16)}Z, ${machine()}, ${build}`,
      '',
      `Where the product's main thread goes: messages, ${writers} conversations in parallel, ${durationSeconds} s profiled (${r.attribution.busySamples} busy samples; under the profiler ${perSecond(r.messagesPerSecond)} messages/s, the main thread ${perMessage === undefined ? '-' : `${perMessage.toFixed(3)} ms`} per message). A sample belongs to the first module of ours on its stack, or to the outermost library that module called.`,
      ...(r.cpuMsPerMessage ? [cpuLine(r.cpuMsPerMessage)] : []),
      '',
      '| owner | share of the main thread | per message |',
      '|---|--:|--:|',
      ...foldSmall(r.attribution.owners, PROFILE_MIN_SHARE).map((o) => `| ${o.name} | ${percent(o.share)} | ${cost(o.share)} |`),
      '',
      '| busiest functions (self) | share |',
      '|---|--:|',
      ...r.attribution.functions.map((f) => `| ${f.name} | ${percent(f.share)} |`),
      '',
      `The profile: ${r.path} (Chrome DevTools, Performance, or VS Code opens it).`,
    ].join('\n'),
  );
};

const goalLines = (mode: string, soak: SoakResult): string[] => {
  const check = checkSoakGoal(mode, soak);
  return check ? ['', describeGoals([check])] : [];
};
