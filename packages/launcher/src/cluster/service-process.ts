import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ReadyMessage } from '@palaver/platform';
import { SERVICE_NODE_FLAGS } from '../node-flags';

export interface ServiceProcessSpec {
  /** Unique in the cluster: `inference-2`. */
  name: string;
  /** The service's entry point, a TypeScript file run by node with tsx's loader. */
  entry: string;
  env: Record<string, string>;
}

export interface ServiceProcessEvents {
  onReady(process: ServiceProcess, message: ReadyMessage): void;
  onExit(process: ServiceProcess, code: number | null, signal: NodeJS.Signals | null): void;
  onOutput(process: ServiceProcess, line: string): void;
}

const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
const STOP_GRACE_MS = 10_000;

/**
 * One service as a child node process (node itself, with tsx as its loader, so that its pid is the
 * service's), restarted after an unexpected exit with a doubling delay, as a supervisor would.
 */
export class ServiceProcess {
  child: ChildProcess | null = null;
  ready: ReadyMessage | null = null;
  restarts = 0;
  private stopping = false;
  private restartDelay = RESTART_DELAY_MS;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly spec: ServiceProcessSpec,
    private readonly root: string,
    private readonly events: ServiceProcessEvents,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    this.ready = null;
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', this.spec.entry], {
      cwd: this.root,
      env: { ...process.env, ...this.spec.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on('line', (line) => this.events.onOutput(this, line));
    }
    child.on('message', (message: ReadyMessage) => {
      if (message?.type !== 'ready') return;
      this.ready = message;
      this.restartDelay = RESTART_DELAY_MS;
      this.events.onReady(this, message);
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      this.events.onExit(this, code, signal);
      if (this.stopping) return;
      this.restarts += 1;
      this.restartTimer = setTimeout(() => this.start(), this.restartDelay);
      this.restartDelay = Math.min(this.restartDelay * 2, MAX_RESTART_DELAY_MS);
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited after a grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
