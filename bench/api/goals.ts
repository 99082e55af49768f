import type { LoadResult } from './load';
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

const READS_RATIO = 50;
const READS_P99_MS = 10;
const INIT_RATIO = 30;
const DISTRIBUTED_MESSAGES_PER_SECOND = 1000;
const FIRST_DELTA_P50_MS = { embedded: 2, distributed: 5 };
const DISTRIBUTED_FIRST_DELTA_P99_MS = 20;
/** The goals count reads and inits at 50 connections only. */
const GOAL_CONNECTIONS = 50;
const SOAK_STREAMS = 10_000;
const SOAK_KB_PER_STREAM = 20;

const PERCENT = { digits: 1, suffix: ' %' };
const MS = { digits: 1, suffix: ' ms' };
const ADDED_MS = { digits: 1, suffix: ' ms', signed: true };
const PER_SECOND = { digits: 0, suffix: '/s' };

/** `measured` has the decimals its verdict needs: never a miss shown as if at the line. */
const check = (
  goal: string,
  value: number,
  limit: number,
  atLeast: boolean,
  unit: typeof ADDED_MS | typeof MS,
  bound?: string,
): GoalCheck => {
  const meets = (v: number) => (atLeast ? v >= limit : v <= limit);
  let digits = unit.digits;
  while (digits < 6 && meets(Number(value.toFixed(digits))) !== meets(value)) digits += 1;
  const measured = `${'signed' in unit && value >= 0 ? '+' : ''}${value.toFixed(digits)}${unit.suffix}`;
  return { goal, measured, met: meets(value), ...(bound === undefined ? {} : { bound }) };
};

/**
 * What bounds messages/s: a Node process runs its JavaScript on one main thread, so the busiest
 * one allows at most 1,000 over its ms a second; and the bus floor's crossings beside the
 * services' own work are the least that main thread can spend.
 */
const messagesBound = (product: LoadResult, { servicesMainThreadMsPerMessage: work, busMainThreadMsPerMessage: bus }: Floors) => {
  const bounds: string[] = [];
  const mainThreads = Object.entries(product.mainThreadMsPerRequest ?? {});
  const [busiest, ms] = mainThreads.reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0]);
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

/** The goals a mode's table answers (messages/s only distributed; a cluster is distributed), each miss with what bounds it. */
export const checkGoals = (rows: Row[], connections: number, floors: Floors = {}): GoalCheck[] => {
  const checks: GoalCheck[] = [];
  for (const { mode, scenario, product: p, baseline: b } of rows) {
    const distributed = mode !== 'embedded';
    if ('rps' in p && 'rps' in b) {
      const ratio = (100 * p.rps) / b.rps;
      const atGoal = connections === GOAL_CONNECTIONS;
      if (scenario === 'reads' && atGoal) {
        checks.push(check(`${mode} reads ≥ ${READS_RATIO} % of bare`, ratio, READS_RATIO, true, PERCENT));
        // A closed loop keeps its connections' requests in flight: a request's time goes as 1 over the throughput (Little's law).
        const bareP99 = `bare Fastify's own p99 ${b.p99.toFixed(1)} ms; with ${connections} requests in flight, at the product's throughput that tail is ${((b.p99 * b.rps) / p.rps).toFixed(1)} ms`;
        checks.push(check(`${mode} reads p99 ≤ ${READS_P99_MS} ms`, p.p99, READS_P99_MS, false, MS, bareP99));
      } else if (scenario === 'init' && atGoal) {
        checks.push(check(`${mode} init ≥ ${INIT_RATIO} % of bare`, ratio, INIT_RATIO, true, PERCENT));
      } else if (scenario === 'messages' && distributed) {
        const limit = DISTRIBUTED_MESSAGES_PER_SECOND;
        checks.push(check(`${mode} messages ≥ ${limit}/s`, p.rps, limit, true, PER_SECOND, messagesBound(p, floors)));
      }
    } else if (scenario === 'ttft') {
      const limit = FIRST_DELTA_P50_MS[distributed ? 'distributed' : 'embedded'];
      const bus =
        distributed && floors.busFirstFragmentP50 !== undefined
          ? `of it, the bus's crossings ${floors.busFirstFragmentP50.toFixed(1)} ms p50`
          : undefined;
      checks.push(check(`${mode} first delta ≤ +${limit} ms p50`, p.p50 - b.p50, limit, false, ADDED_MS, bus));
      const p99 = DISTRIBUTED_FIRST_DELTA_P99_MS;
      if (distributed) checks.push(check(`${mode} first delta ≤ +${p99} ms p99`, p.p99 - b.p99, p99, false, ADDED_MS));
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
