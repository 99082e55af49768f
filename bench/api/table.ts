import { cpus, totalmem } from 'node:os';
import type { BusFloorResult } from './bus-floor';
import { capacity } from './cpu';
import { checkSoakGoal, describeGoals } from './goals';
import type { LoadResult } from './load';
import type { SoakResult } from './soak';
import type { TtftResult } from './ttft';

/** Which of the bench's scenarios a row measured (its name also carries the run's settings). */
export type Scenario = 'reads' | 'reads-1' | 'init' | 'messages' | 'ttft';

/** One scenario's median round; `range`: the lowest and highest score (ratio, or added p50) of all rounds. */
export type Row = { mode: string; scenario: Scenario; name: string; range: [number, number] } & (
  | { product: LoadResult; baseline: LoadResult }
  | { product: TtftResult; baseline: TtftResult }
);

/** autocannon reports whole milliseconds: 0 means under 1 ms. */
const ms = (value: number): string =>
  !Number.isFinite(value) ? '-' : value === 0 ? '<1 ms' : `${value.toFixed(Math.abs(value) < 10 ? 1 : 0)} ms`;
const added = (value: number): string => `${value < 0 ? '-' : '+'}${ms(Math.abs(value))}`;
const heading = (what: string): string =>
  `${what}, ${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;

/** Each process's CPU ms (and main thread's) per request, and the requests/s those allow on this machine's cores. */
const costs = (cpu: Record<string, number>, mainThreads: Record<string, number> = {}): string => {
  const { cpuMs, perSecond } = capacity(cpu);
  const parts = Object.entries(cpu)
    .filter(([, value]) => value >= 0.005)
    .map(
      ([name, value]) => `${name} ${value.toFixed(2)} ms${name in mainThreads ? ` (main thread ${mainThreads[name]!.toFixed(2)})` : ''}`,
    );
  return `${parts.join(', ')}; in all ${cpuMs.toFixed(2)} ms, so at most ${perSecond.toFixed(0)}/s on ${cpus().length} cores`;
};

/** One markdown table: the product, the baseline, and how the product compares; then the CPU per request. */
export const printRows = (rows: Row[], settings: { duration: number; rounds: number; build: string }): void => {
  const lines = [
    heading('pnpm bench:api') +
      `, ${settings.duration} s per run, ${settings.rounds} rounds (product and baseline in turn; the median round, the rounds' range in brackets), ${settings.build}`,
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
      const ratio = `${((100 * p.rps) / b.rps).toFixed(1)} %${spread((v) => `${v.toFixed(1)} %`)}`;
      lines.push(
        `| ${row.mode} | ${row.name} | ${p.rps.toFixed(0)} | ${ms(p.p50)} | ${ms(p.p99)} | ${b.rps.toFixed(0)} | ${ms(b.p50)} | ${ms(b.p99)} | ${ratio}${failed} |`,
      );
    } else if ('count' in p && 'count' in b) {
      const failed = p.failed + b.failed > 0 ? ` (failed: ${p.failed} / ${b.failed})` : '';
      const delta = `${added(p.p50 - b.p50)} p50${spread(added)}, ${added(p.p99 - b.p99)} p99`;
      lines.push(
        `| ${row.mode} | ${row.name}, ${p.count} in a row | - | ${ms(p.p50)} | ${ms(p.p99)} | - | ${ms(b.p50)} | ${ms(b.p99)} | ${delta}${failed} |`,
      );
    }
  }
  const measured = rows.flatMap((row) => ('rps' in row.product && row.product.cpuMsPerRequest ? [row] : []));
  if (measured.length > 0) {
    lines.push(
      '',
      'CPU per answered request (user + system, until the product was idle again), then bare Fastify for the same request:',
      '',
    );
    for (const row of measured) {
      const p = row.product as LoadResult;
      const b = row.baseline as LoadResult;
      const bare = b.cpuMsPerRequest ? `; bare: ${costs(b.cpuMsPerRequest)}` : '';
      lines.push(`- ${row.mode}, ${row.name}: ${costs(p.cpuMsPerRequest!, p.mainThreadMsPerRequest)}${bare}`);
    }
  }
  console.log(lines.join('\n'));
};

/** The bus floor (bus-floor.server.ts) under the distributed table. */
export const printBusFloor = (floor: BusFloorResult, concurrency: number): void => {
  const { p50, p99, count } = floor.firstFragment;
  console.log(
    `\nBus floor: a message's crossings of NATS, JetStream, BullMQ and Redis through the product's adapters, handlers doing nothing else, ${concurrency} at a time: ${floor.rps.toFixed(0)}/s; CPU per message: ${costs(floor.cpuMsPerMessage, { floor: floor.mainThreadMsPerMessage })}, before any work of the services. One at a time (${count}), the first fragment comes ${ms(p50)} p50, ${ms(p99)} p99 after the command.`,
  );
};

export const printSoak = (mode: string, r: SoakResult): void => {
  const check = checkSoakGoal(mode, r);
  console.log(
    [
      heading(`pnpm bench:api --soak ${r.streams}`),
      '',
      '| mode | streams | open at once | completed | dropped | heap+external per stream (with its stored exchange) | held while open | RSS per stream |',
      '|---|--:|--:|--:|--:|--:|--:|--:|',
      `| ${mode} | ${r.streams} | ${r.opened} | ${r.completed} | ${r.dropped} | ${r.heapPerStreamKb.toFixed(1)} KB | ${r.openPerStreamKb.toFixed(1)} KB | ${r.rssPerStreamKb.toFixed(1)} KB |`,
      ...(check ? ['', describeGoals([check])] : []),
    ].join('\n'),
  );
};
