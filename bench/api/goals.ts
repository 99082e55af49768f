import { cpus } from 'node:os';
import { capacity } from './cpu';
import type { LoadResult } from './load';
import type { SoakResult } from './soak';
import type { Row } from './table';

/**
 * One goal of the hot-path issue, read off this run: what it asks, what the run measured, whether
 * that meets it, and what the same run measured under the figure (`bound`), where it has a floor.
 */
export interface GoalCheck {
  goal: string;
  measured: string;
  met: boolean;
  bound?: string;
}

/** The floors a run measured beside its table (main.ts), each under one goal's figure. */
export interface Floors {
  /** The disk's durable append, one at a time, p50 ms: every first delta waits for one. */
  diskFlushP50?: number;
  /** The bus floor's CPU per message, all its processes together, ms (distributed). */
  busCpuMsPerMessage?: number;
  /**
   * The services' own work per message: the embedded product's CPU per message in the same run,
   * where the services meet on the in-process bus (distributed, when the run measured embedded too).
   */
  servicesCpuMsPerMessage?: number;
  /** The bus floor process's main thread's CPU per message, ms: the crossings' share of a main thread's work. */
  busMainThreadMsPerMessage?: number;
  /** The embedded product's main thread's CPU per message in the same run: the services' share of it. */
  servicesMainThreadMsPerMessage?: number;
  /** The stack floor's CPU per message (the bus floor's crossings with the libraries alone), all its processes, ms. */
  stackCpuMsPerMessage?: number;
  /** The bus floor's lone message to its first fragment, p50 ms (distributed). */
  busFirstFragmentP50?: number;
}

/** Which of the bench's scenarios a row measured (its name also carries the run's settings). */
export type Scenario = 'reads' | 'reads-1' | 'init' | 'messages' | 'ttft';

const READS_RATIO = 50;
const READS_P99_MS = 10;
const INIT_RATIO = 30;
const DISTRIBUTED_MESSAGES_PER_SECOND = 1000;
const EMBEDDED_FIRST_DELTA_P50_MS = 2;
const DISTRIBUTED_FIRST_DELTA_P50_MS = 5;
const DISTRIBUTED_FIRST_DELTA_P99_MS = 20;
/** The goals' load: reads and inits at 50 connections. */
const GOAL_CONNECTIONS = 50;
const SOAK_STREAMS = 10_000;
const SOAK_KB_PER_STREAM = 20;

const atLeast = (limit: number) => (value: number) => value >= limit;
const atMost = (limit: number) => (value: number) => value <= limit;

/** How a figure is printed: its unit, its usual decimals, and whether it is a signed difference. */
interface Unit {
  suffix: string;
  digits: number;
  signed?: boolean;
}
const PERCENT: Unit = { suffix: ' %', digits: 1 };
const MS: Unit = { suffix: ' ms', digits: 1 };
const ADDED_MS: Unit = { suffix: ' ms', digits: 1, signed: true };
const PER_SECOND: Unit = { suffix: '/s', digits: 0 };

/** A figure at its unit's decimals, or at more where those would show a missed goal as met (or the reverse). */
const shown = (value: number, meets: (value: number) => boolean, unit: Unit): string => {
  let digits = unit.digits;
  while (digits < 6 && meets(Number(value.toFixed(digits))) !== meets(value)) digits += 1;
  return `${unit.signed && value >= 0 ? '+' : ''}${value.toFixed(digits)}${unit.suffix}`;
};

const check = (goal: string, value: number, meets: (value: number) => boolean, unit: Unit, bound?: string): GoalCheck => ({
  goal,
  measured: shown(value, meets, unit),
  met: meets(value),
  ...(bound === undefined ? {} : { bound }),
});

/** What no work of the product can take from its first delta: the disk's flush, and distributed the bus's crossings. */
const firstDeltaFloor = (distributed: boolean, { diskFlushP50, busFirstFragmentP50 }: Floors): string | undefined => {
  if (diskFlushP50 === undefined) return undefined;
  const disk = `of it, the disk's flush ${diskFlushP50.toFixed(1)} ms p50`;
  if (!distributed) return disk;
  return busFirstFragmentP50 === undefined ? undefined : `${disk}, the bus's crossings ${busFirstFragmentP50.toFixed(1)} ms p50`;
};

/**
 * What bounds a messages/s figure, from the run's own CPU per message: a Node process runs its
 * JavaScript on its main thread, so the busiest main thread allows at most 1,000 over its
 * milliseconds a second; all the processes together (the servers and the load generator included)
 * share the cores; and the bus floor's crossings alone, where measured, with the services' work
 * beside them, in all and on the one main thread a process runs both on; and the stack floor's
 * crossings with bare Fastify's answer to the same request (`baseline`), the least a message can cost.
 */
const messagesBound = (product: LoadResult, baseline: LoadResult, floors: Floors, cores: number): string | undefined => {
  const bounds: string[] = [];
  const { cpuMsPerRequest: cpu, mainThreadMsPerRequest: mainThreads, mainThreadPreemptionsPerRequest: preempted } = product;
  if (cpu && mainThreads && Object.keys(mainThreads).length > 0) {
    const [busiest, busiestMs] = Object.entries(mainThreads).reduce((a, b) => (b[1] > a[1] ? b : a));
    const all = capacity(cpu, cores);
    if (busiestMs > 0) {
      const times = preempted?.[busiest];
      const preemptedText = times === undefined ? '' : ` (preempted ${times.toFixed(2)} times per message)`;
      bounds.push(
        `the busiest main thread (${busiest}) spent ${busiestMs.toFixed(2)} ms per message${preemptedText}, so at most ${(1000 / busiestMs).toFixed(0)}/s, and all processes ${all.cpuMs.toFixed(2)} ms, so at most ${all.perSecond.toFixed(0)}/s on ${cores} cores`,
      );
    }
  }
  const bus = floors.busCpuMsPerMessage;
  if (bus !== undefined) {
    bounds.push(`the bus floor alone allows at most ${((cores * 1000) / bus).toFixed(0)}/s on these cores`);
    const stack = floors.stackCpuMsPerMessage;
    if (stack !== undefined) {
      bounds.push(`the same crossings with the stack's libraries alone at most ${((cores * 1000) / stack).toFixed(0)}/s`);
      // The floors make no HTTP request: bare Fastify's answer to the same one is the rest of a message's least cost.
      const bare = baseline.cpuMsPerRequest && capacity(baseline.cpuMsPerRequest, cores).cpuMs;
      if (bare) {
        const least = stack + bare;
        bounds.push(
          `those crossings and bare Fastify's answer to the same request (${bare.toFixed(2)} ms, with its load generator) come to ${least.toFixed(2)} ms per message before any work of the services, so at most ${((cores * 1000) / least).toFixed(0)}/s on these cores`,
        );
      }
    }
    const work = floors.servicesCpuMsPerMessage;
    if (work !== undefined) {
      const both = work + bus;
      bounds.push(
        `the services' work (embedded, ${work.toFixed(2)} ms) and the bus floor's crossings (${bus.toFixed(2)} ms) come to ${both.toFixed(2)} ms per message, so at most ${((cores * 1000) / both).toFixed(0)}/s on these cores`,
      );
    }
  }
  // One process does both on its one main thread: the services' share and the crossings' share of it.
  const { servicesMainThreadMsPerMessage: workThread, busMainThreadMsPerMessage: busThread } = floors;
  if (workThread !== undefined && busThread !== undefined) {
    const both = workThread + busThread;
    bounds.push(
      `on one main thread, the services' work (embedded, ${workThread.toFixed(2)} ms) and the bus floor's crossings (${busThread.toFixed(2)} ms) come to ${both.toFixed(2)} ms per message, so at most ${(1000 / both).toFixed(0)}/s`,
    );
  }
  return bounds.length > 0 ? bounds.join('; ') : undefined;
};

/**
 * The goals a mode's table answers. Reads and init count only at the goals' 50 connections;
 * messages/s has a goal only distributed (embedded: "as high as the disk allows"), and a cluster
 * is distributed. `floors`, where measured, and the run's CPU per message give each missed goal its bound.
 */
export const checkGoals = (rows: Row[], connections: number, floors: Floors = {}, cores = cpus().length): GoalCheck[] => {
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
        checks.push(check(`${row.mode} messages ≥ ${limit}/s`, p.rps, atLeast(limit), PER_SECOND, messagesBound(p, b, floors, cores)));
      }
    } else if ('count' in p && 'count' in b && row.scenario === 'ttft') {
      const limit = distributed ? DISTRIBUTED_FIRST_DELTA_P50_MS : EMBEDDED_FIRST_DELTA_P50_MS;
      const floor = firstDeltaFloor(distributed, floors);
      checks.push(check(`${row.mode} first delta ≤ +${limit} ms p50`, p.p50 - b.p50, atMost(limit), ADDED_MS, floor));
      if (distributed) {
        const p99Limit = DISTRIBUTED_FIRST_DELTA_P99_MS;
        checks.push(check(`${row.mode} first delta ≤ +${p99Limit} ms p99`, p.p99 - b.p99, atMost(p99Limit), ADDED_MS));
      }
    }
  }
  return checks;
};

/**
 * The soak's goal: 10,000 concurrent streams on one gateway process, at most 20 KB each, none
 * dropped (null for a soak of fewer streams, which the goal does not speak of).
 */
export const checkSoakGoal = (mode: string, soak: SoakResult): GoalCheck | null =>
  soak.streams < SOAK_STREAMS
    ? null
    : {
        goal: `${mode} ${SOAK_STREAMS.toLocaleString('en-US')} streams ≤ ${SOAK_KB_PER_STREAM} KB each, none dropped`,
        measured: `${soak.opened.toLocaleString('en-US')} open at once, ${soak.heapPerStreamKb.toFixed(1)} KB each, ${soak.dropped} dropped`,
        met: soak.opened >= SOAK_STREAMS && soak.heapPerStreamKb <= SOAK_KB_PER_STREAM && soak.dropped === 0,
      };

/** "Goals: met …; not met … (with its bound)", one line each, for under a table. */
export const describeGoals = (checks: GoalCheck[]): string => {
  if (checks.length === 0) return '';
  const list = (met: boolean) =>
    checks
      .filter((check) => check.met === met)
      .map((check) => `${check.goal}: ${check.measured}${!met && check.bound ? ` (${check.bound})` : ''}`)
      .join('; ');
  const lines = ['Against the hot-path goals in this run:'];
  if (checks.some((check) => check.met)) lines.push(`- met: ${list(true)}`);
  if (checks.some((check) => !check.met)) lines.push(`- not met: ${list(false)}`);
  return lines.join('\n');
};
