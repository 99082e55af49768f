import { cpus, totalmem } from 'node:os';
import type { BusFloorResult } from './bus-floor';
import { capacity } from './cpu';
import { checkSoakGoal, describeGoals } from './goals';
import type { LoadResult, TtftResult } from './measure';
import type { SoakResult } from './soak';

export type Scenario = 'reads' | 'reads-1' | 'init' | 'messages' | 'ttft';

/** One scenario's median round; `range`: the lowest and highest score (ratio, or added p50) of all rounds. */
export type Row = { mode: string; scenario: Scenario; name: string; range: [number, number] } & (
  | { product: LoadResult; baseline: LoadResult }
  | { product: TtftResult; baseline: TtftResult }
);

/** A scenario's row beside the median round of the same product with tracing on, in the same rounds. */
export interface TracingRow {
  off: Row;
  on: LoadResult | TtftResult;
}

/** autocannon reports whole milliseconds: 0 means under 1 ms. */
const ms = (value: number): string =>
  !Number.isFinite(value) ? '-' : value === 0 ? '<1 ms' : `${value.toFixed(Math.abs(value) < 10 ? 1 : 0)} ms`;
const added = (value: number): string => `${value < 0 ? '-' : '+'}${ms(Math.abs(value))}`;
const percent = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)} %`;
const heading = (what: string): string =>
  `${what}, ${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;

/** A Markdown table: the first `left` columns aligned left, the others right. */
const markdown = (columns: string[], rows: Array<Array<string | number>>, left = 2): string[] => [
  `| ${columns.join(' | ')} |`,
  `|${columns.map((_, i) => (i < left ? '---|' : '--:|')).join('')}`,
  ...rows.map((cells) => `| ${cells.join(' | ')} |`),
];

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

/** The product, the baseline, and how the product compares; then the CPU per request. */
export const printRows = (rows: Row[], settings: { duration: number; rounds: number; build: string }): void => {
  const cells = rows.map(({ mode, name, range, product: p, baseline: b }) => {
    const spread = (unit: (v: number) => string) => (settings.rounds > 1 ? ` (${unit(range[0])} to ${unit(range[1])})` : '');
    const failures = (r: LoadResult | TtftResult) => ('failures' in r ? r.failures || 0 : r.failed);
    const failed = p.failed + b.failed > 0 ? ` (failed: ${failures(p)} / ${failures(b)})` : '';
    if ('rps' in p && 'rps' in b) {
      const ratio = `${percent(p.rps, b.rps)}${spread((v) => `${v.toFixed(1)} %`)}`;
      return [mode, name, p.rps.toFixed(0), ms(p.p50), ms(p.p99), b.rps.toFixed(0), ms(b.p50), ms(b.p99), ratio + failed];
    }
    const delta = `${added(p.p50 - b.p50)} p50${spread(added)}, ${added(p.p99 - b.p99)} p99`;
    const count = 'count' in p ? p.count : 0;
    return [mode, `${name}, ${count} in a row`, '-', ms(p.p50), ms(p.p99), '-', ms(b.p50), ms(b.p99), delta + failed];
  });
  const columns = ['mode', 'scenario', 'product req/s', 'p50', 'p99', 'bare Fastify req/s', 'p50', 'p99', 'product vs bare'];
  const lines = [
    `${heading('pnpm bench:api')}, ${settings.duration} s per run, ${settings.rounds} rounds (product and baseline in turn; the median round, the rounds' range in brackets), ${settings.build}`,
    '',
    ...markdown(columns, cells),
  ];
  const measured = rows.flatMap(({ mode, name, product: p, baseline: b }) =>
    'rps' in p && p.cpuMsPerRequest ? [{ mode, name, p, b }] : [],
  );
  if (measured.length > 0)
    lines.push(
      '',
      'CPU per answered request (user + system, until the product was idle again), then bare Fastify for the same request:',
      '',
    );
  for (const { mode, name, p, b } of measured) {
    const bare = 'rps' in b && b.cpuMsPerRequest ? `; bare: ${costs(b.cpuMsPerRequest)}` : '';
    lines.push(`- ${mode}, ${name}: ${costs(p.cpuMsPerRequest!, p.mainThreadMsPerRequest)}${bare}`);
  }
  console.log(lines.join('\n'));
};

export const printBusFloor = (floor: BusFloorResult, concurrency: number): void => {
  const { p50, p99, count } = floor.firstFragment;
  console.log(
    `\nBus floor: a message's crossings of NATS, JetStream, BullMQ and Redis through the product's adapters, handlers doing nothing else, ${concurrency} at a time: ${floor.rps.toFixed(0)}/s; CPU per message: ${costs(floor.cpuMsPerMessage, { floor: floor.mainThreadMsPerMessage })}, before any work of the services. One at a time (${count}), the first fragment comes ${ms(p50)} p50, ${ms(p99)} p99 after the command.`,
  );
};

/** Tracing on against tracing off of the same run; what the sink received. */
export const printTracing = (
  mode: string,
  rows: TracingRow[],
  sink: { spans: number; bytes: number; total: { requests: number; spans: number; bytes: number } },
): void => {
  const productCpu = (r: LoadResult) => r.productProcesses?.reduce((sum, n) => sum + (r.cpuMsPerRequest?.[n] ?? 0), 0);
  const withCpu = (r: LoadResult) => `${r.rps.toFixed(0)}${productCpu(r) === undefined ? '' : `, ${productCpu(r)!.toFixed(2)} ms CPU`}`;
  const cells = rows.flatMap(({ off: { name, product: off }, on }) =>
    'rps' in off && 'rps' in on
      ? [[mode, `${name}, req/s`, withCpu(off), withCpu(on), percent(on.rps, off.rps)]]
      : (['p50', 'p99'] as const).map((p) => [mode, `${name}, ${p}`, ms(off[p]), ms(on[p]), added(on[p] - off[p])]),
  );
  const { total } = sink;
  console.log(
    [
      `\nTracing on: the same product exporting every span over OTLP (http/protobuf) to a sink in the bench process, taking its turn in the same rounds as the tracing-off product above (the product's CPU per request beside req/s):`,
      '',
      ...markdown(['mode', 'scenario', 'tracing off', 'tracing on', 'on vs off'], cells),
      '',
      `A message one at a time exported ${sink.spans.toFixed(1)} spans, ${(sink.bytes / 1024).toFixed(1)} KB; the sink received ${total.spans} spans, ${(total.bytes / 2 ** 20).toFixed(1)} MiB in ${total.requests} exports in all.`,
    ].join('\n'),
  );
};

export const printSoak = (mode: string, r: SoakResult): void => {
  const check = checkSoakGoal(mode, r);
  const kb = (v: number) => `${v.toFixed(1)} KB`;
  const heap = 'heap+external per stream (with its stored exchange)';
  const columns = ['mode', 'streams', 'open at once', 'completed', 'dropped', heap, 'held while open', 'RSS per stream'];
  const cells = [[mode, r.streams, r.opened, r.completed, r.dropped, kb(r.heapPerStreamKb), kb(r.openPerStreamKb), kb(r.rssPerStreamKb)]];
  const goals = check ? ['', describeGoals([check])] : [];
  console.log([heading(`pnpm bench:api --soak ${r.streams}`), '', ...markdown(columns, cells, 1), ...goals].join('\n'));
};
