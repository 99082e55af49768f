import type { LoadResult } from './load';
import type { SoakResult } from './soak';
import type { Row } from './table';

/** One goal read off a run: what it asks, what the run measured, whether that meets it, and what bounds it (`bound`). */
export interface GoalCheck {
  goal: string;
  measured: string;
  met: boolean;
  bound?: string;
}

/** What the bus floor measured in the same run (distributed), and the services' own work measured embedded. */
export interface Floors {
  /** The bus floor process's main thread, CPU ms per message: the crossings' share of a main thread. */
  busMainThreadMsPerMessage?: number;
  /** The embedded product's main thread, CPU ms per message: the services' own work. */
  servicesMainThreadMsPerMessage?: number;
  /** The bus floor's lone message to its first fragment, p50 ms. */
  busFirstFragmentP50?: number;
}

const READS_RATIO = 50;
const READS_P99_MS = 10;
const INIT_RATIO = 30;
const DISTRIBUTED_MESSAGES_PER_SECOND = 1000;
const EMBEDDED_FIRST_DELTA_P50_MS = 2;
const DISTRIBUTED_FIRST_DELTA_P50_MS = 5;
const DISTRIBUTED_FIRST_DELTA_P99_MS = 20;
/** The goals count reads and inits at 50 connections only. */
const GOAL_CONNECTIONS = 50;
const SOAK_STREAMS = 10_000;
const SOAK_KB_PER_STREAM = 20;

const atLeast = (limit: number) => (value: number) => value >= limit;
const atMost = (limit: number) => (value: number) => value <= limit;

/** A figure at `digits` decimals, or at more where those would show a missed goal as met (or the reverse). */
const shown = (value: number, meets: (value: number) => boolean, digits: number, suffix: string, signed = false): string => {
  while (digits < 6 && meets(Number(value.toFixed(digits))) !== meets(value)) digits += 1;
  return `${signed && value >= 0 ? '+' : ''}${value.toFixed(digits)}${suffix}`;
};

const check = (
  goal: string,
  value: number,
  meets: (value: number) => boolean,
  unit: { digits: number; suffix: string; signed?: boolean },
  bound?: string,
): GoalCheck => ({
  goal,
  measured: shown(value, meets, unit.digits, unit.suffix, unit.signed),
  met: meets(value),
  ...(bound === undefined ? {} : { bound }),
});
const PERCENT = { digits: 1, suffix: ' %' };
const MS = { digits: 1, suffix: ' ms' };
const ADDED_MS = { digits: 1, suffix: ' ms', signed: true };
const PER_SECOND = { digits: 0, suffix: '/s' };

/**
 * What bounds a messages/s figure: a Node process runs its JavaScript on one main thread, so the
 * busiest main thread allows at most 1,000 over its milliseconds a second; and the bus floor's
 * crossings beside the services' own work come to the least that main thread can spend.
 */
const messagesBound = (product: LoadResult, floors: Floors): string | undefined => {
  const bounds: string[] = [];
  const mainThreads = product.mainThreadMsPerRequest ?? {};
  if (Object.keys(mainThreads).length > 0) {
    const [busiest, ms] = Object.entries(mainThreads).reduce((a, b) => (b[1] > a[1] ? b : a));
    if (ms > 0)
      bounds.push(`the busiest main thread (${busiest}) spent ${ms.toFixed(2)} ms per message, so at most ${(1000 / ms).toFixed(0)}/s`);
  }
  const { servicesMainThreadMsPerMessage: work, busMainThreadMsPerMessage: bus } = floors;
  if (work !== undefined && bus !== undefined) {
    bounds.push(
      `on one main thread, the services' work (embedded, ${work.toFixed(2)} ms) and the bus floor's crossings (${bus.toFixed(2)} ms) come to ${(work + bus).toFixed(2)} ms per message, so at most ${(1000 / (work + bus)).toFixed(0)}/s`,
    );
  }
  return bounds.length > 0 ? bounds.join('; ') : undefined;
};

/**
 * The goals a mode's table answers. Messages/s has a goal only distributed (embedded: "as high as
 * the disk allows"), and a cluster is distributed. Each missed goal names what bounds it.
 */
export const checkGoals = (rows: Row[], connections: number, floors: Floors = {}): GoalCheck[] => {
  const checks: GoalCheck[] = [];
  for (const row of rows) {
    const distributed = row.mode !== 'embedded';
    const { product: p, baseline: b } = row;
    if ('rps' in p && 'rps' in b) {
      const ratio = (100 * p.rps) / b.rps;
      if (row.scenario === 'reads' && connections === GOAL_CONNECTIONS) {
        checks.push(check(`${row.mode} reads ≥ ${READS_RATIO} % of bare`, ratio, atLeast(READS_RATIO), PERCENT));
        // A closed loop keeps its connections' requests in flight: a request's time goes as 1 over the throughput (Little's law).
        const bareP99 = `bare Fastify's own p99 ${b.p99.toFixed(1)} ms; with ${connections} requests in flight, at the product's throughput that tail is ${((b.p99 * b.rps) / p.rps).toFixed(1)} ms`;
        checks.push(check(`${row.mode} reads p99 ≤ ${READS_P99_MS} ms`, p.p99, atMost(READS_P99_MS), MS, bareP99));
      } else if (row.scenario === 'init' && connections === GOAL_CONNECTIONS) {
        checks.push(check(`${row.mode} init ≥ ${INIT_RATIO} % of bare`, ratio, atLeast(INIT_RATIO), PERCENT));
      } else if (row.scenario === 'messages' && distributed) {
        const limit = DISTRIBUTED_MESSAGES_PER_SECOND;
        checks.push(check(`${row.mode} messages ≥ ${limit}/s`, p.rps, atLeast(limit), PER_SECOND, messagesBound(p, floors)));
      }
    } else if ('count' in p && 'count' in b && row.scenario === 'ttft') {
      const limit = distributed ? DISTRIBUTED_FIRST_DELTA_P50_MS : EMBEDDED_FIRST_DELTA_P50_MS;
      const bus = floors.busFirstFragmentP50;
      const floor = distributed && bus !== undefined ? `of it, the bus's crossings ${bus.toFixed(1)} ms p50` : undefined;
      checks.push(check(`${row.mode} first delta ≤ +${limit} ms p50`, p.p50 - b.p50, atMost(limit), ADDED_MS, floor));
      if (distributed) {
        const p99Limit = DISTRIBUTED_FIRST_DELTA_P99_MS;
        checks.push(check(`${row.mode} first delta ≤ +${p99Limit} ms p99`, p.p99 - b.p99, atMost(p99Limit), ADDED_MS));
      }
    }
  }
  return checks;
};

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
  if (checks.length === 0) return '';
  const list = (met: boolean) =>
    checks
      .filter((c) => c.met === met)
      .map((c) => `${c.goal}: ${c.measured}${!met && c.bound ? ` (${c.bound})` : ''}`)
      .join('; ');
  const lines = ['Against the hot-path goals in this run:'];
  if (checks.some((c) => c.met)) lines.push(`- met: ${list(true)}`);
  if (checks.some((c) => !c.met)) lines.push(`- not met: ${list(false)}`);
  return lines.join('\n');
};
