import type { LoadResult, TtftResult } from './measure';
import type { SoakResult } from './soak';
import type { Row } from './table';

/** One goal read off a run: what it asks, what the run measured, whether that meets it, and what bounds it. */
export interface GoalCheck {
  goal: string;
  measured: string;
  met: boolean;
  bound?: string;
}

/** Main-thread CPU ms per message of the bus floor (distributed) and of the embedded product; the floor's first fragment p50. */
export interface Floors {
  busMainThreadMsPerMessage?: number;
  servicesMainThreadMsPerMessage?: number;
  busFirstFragmentP50?: number;
}

type Unit = { digits: number; suffix: string; signed?: boolean };
const PERCENT: Unit = { digits: 1, suffix: ' %' };
const MS: Unit = { digits: 1, suffix: ' ms' };
const ADDED_MS: Unit = { digits: 1, suffix: ' ms', signed: true };
const PER_SECOND: Unit = { digits: 0, suffix: '/s' };

type Both = LoadResult & TtftResult;
type Bound = (product: Both, baseline: Both, floors: Floors, connections: number) => string | undefined;

interface Goal {
  scenario: Row['scenario'];
  /** What it asks, `#` standing for its line: `≥` a floor, `≤` a ceiling. */
  asks: string;
  /** The line embedded and distributed (a cluster is distributed); null: no goal in that mode. */
  limits: [number | null, number];
  unit: Unit;
  figure(product: Both, baseline: Both): number;
  bound?: Bound;
}

/** The goals count reads and inits at 50 connections only. */
const GOAL_CONNECTIONS = 50;
const ratio = (p: LoadResult, b: LoadResult) => (100 * p.rps) / b.rps;

/** A closed loop keeps its connections' requests in flight: a request's time goes as 1 over the throughput (Little's law). */
const readsBound: Bound = (p, b, _, connections) =>
  `bare Fastify's own p99 ${b.p99.toFixed(1)} ms; with ${connections} requests in flight, at the product's throughput that tail is ${((b.p99 * b.rps) / p.rps).toFixed(1)} ms`;

const busBound: Bound = (_p, _b, { busFirstFragmentP50: bus }) =>
  bus === undefined ? undefined : `of it, the bus's crossings ${bus.toFixed(1)} ms p50`;

/**
 * What bounds messages/s: a Node process runs its JavaScript on one main thread, so the busiest
 * one allows at most 1,000 over its ms a second; and the bus floor's crossings beside the
 * services' own work are the least that main thread can spend.
 */
const messagesBound: Bound = (product, _, { servicesMainThreadMsPerMessage: work, busMainThreadMsPerMessage: bus }) => {
  const bounds: string[] = [];
  const [busiest, ms] = Object.entries(product.mainThreadMsPerRequest ?? {}).reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0]);
  if (ms > 0)
    bounds.push(`the busiest main thread (${busiest}) spent ${ms.toFixed(2)} ms per message, so at most ${(1000 / ms).toFixed(0)}/s`);
  if (work !== undefined && bus !== undefined) {
    const both = work + bus;
    bounds.push(
      `on one main thread, the services' work (embedded, ${work.toFixed(2)} ms) and the bus floor's crossings (${bus.toFixed(2)} ms) come to ${both.toFixed(2)} ms per message, so at most ${(1000 / both).toFixed(0)}/s`,
    );
  }
  return bounds.length > 0 ? bounds.join('; ') : undefined;
};

/** docs/performance.md's goals, in the order they are checked. */
const GOALS: Goal[] = [
  { scenario: 'reads', asks: 'reads ≥ # % of bare', limits: [50, 50], unit: PERCENT, figure: ratio },
  { scenario: 'reads', asks: 'reads p99 ≤ # ms', limits: [10, 10], unit: MS, figure: (p) => p.p99, bound: readsBound },
  { scenario: 'init', asks: 'init ≥ # % of bare', limits: [30, 30], unit: PERCENT, figure: ratio },
  { scenario: 'messages', asks: 'messages ≥ #/s', limits: [null, 1000], unit: PER_SECOND, figure: (p) => p.rps, bound: messagesBound },
  { scenario: 'ttft', asks: 'first delta ≤ +# ms p50', limits: [2, 5], unit: ADDED_MS, figure: (p, b) => p.p50 - b.p50, bound: busBound },
  { scenario: 'ttft', asks: 'first delta ≤ +# ms p99', limits: [null, 20], unit: ADDED_MS, figure: (p, b) => p.p99 - b.p99 },
];

/** `measured` has the decimals its verdict needs: never a miss shown as if at the line. */
const measuredAgainst = (value: number, meets: (v: number) => boolean, unit: Unit): string => {
  let digits = unit.digits;
  while (digits < 6 && meets(Number(value.toFixed(digits))) !== meets(value)) digits += 1;
  return `${unit.signed && value >= 0 ? '+' : ''}${value.toFixed(digits)}${unit.suffix}`;
};

/** The goals a mode's table answers, each miss with what bounds it (the bus floor's only distributed). */
export const checkGoals = (rows: Row[], connections: number, floors: Floors = {}): GoalCheck[] =>
  rows.flatMap(({ mode, scenario, product, baseline }) => {
    const distributed = mode !== 'embedded';
    const counted = connections === GOAL_CONNECTIONS || (scenario !== 'reads' && scenario !== 'init');
    return GOALS.flatMap(({ asks, limits, unit, figure, bound, ...goal }) => {
      const limit = limits[distributed ? 1 : 0];
      if (goal.scenario !== scenario || limit === null || !counted) return [];
      const [p, b] = [product, baseline] as Both[];
      const value = figure(p!, b!);
      const meets = (v: number) => (asks.includes('≥') ? v >= limit : v <= limit);
      const why = bound?.(p!, b!, distributed ? floors : {}, connections);
      const measured = measuredAgainst(value, meets, unit);
      return [
        { goal: `${mode} ${asks.replace('#', String(limit))}`, measured, met: meets(value), ...(why === undefined ? {} : { bound: why }) },
      ];
    });
  });

const SOAK_STREAMS = 10_000;
const SOAK_KB_PER_STREAM = 20;

/** The soak's goal: 10,000 concurrent streams on one gateway, at most 20 KB each, none dropped (null for a smaller soak). */
export const checkSoakGoal = (mode: string, soak: SoakResult): GoalCheck | null =>
  soak.streams < SOAK_STREAMS
    ? null
    : {
        goal: `${mode} ${SOAK_STREAMS.toLocaleString('en-US')} streams ≤ ${SOAK_KB_PER_STREAM} KB each, none dropped`,
        measured: `${soak.opened.toLocaleString('en-US')} open at once, ${soak.heapPerStreamKb.toFixed(1)} KB each, ${soak.dropped} dropped`,
        met: soak.opened >= SOAK_STREAMS && soak.heapPerStreamKb <= SOAK_KB_PER_STREAM && soak.dropped === 0,
      };

/** "met: …" and "not met: … (with its bound)", for under a table. */
export const describeGoals = (checks: GoalCheck[]): string => {
  const list = (met: boolean) =>
    checks
      .filter((c) => c.met === met)
      .map((c) => `${c.goal}: ${c.measured}${!met && c.bound ? ` (${c.bound})` : ''}`)
      .join('; ');
  const lines = checks.length === 0 ? [] : ['Against the hot-path goals in this run:'];
  if (checks.some((c) => c.met)) lines.push(`- met: ${list(true)}`);
  if (checks.some((c) => !c.met)) lines.push(`- not met: ${list(false)}`);
  return lines.join('\n');
};
