import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ReadyMessage } from '@palaver/platform';
import { ServiceProcess, type ServiceProcessEvents } from './service-process';

export interface ClusterOptions {
  root: string;
  /** Each stateful service gets `<dataDir>/<service>` as its own DATA_DIR. */
  dataDir: string;
  natsUrl: string;
  redisUrl: string;
  gateways: number;
  workers: number;
  /** First gateway's port; the next ones take the following ports (0: any free port). */
  port: number;
  host: string;
  adminToken: string;
  /** Passed to every process (LOG_LEVEL, OPENAI_*, MONGODB_URL, ...). */
  env: Record<string, string>;
  log(line: string): void;
  /** A service's entry point instead of `services/<service>/src/main.ts` (the bench's instant model). */
  entries?: Partial<Record<string, string>>;
}

const STATEFUL = ['identity', 'conversation', 'search', 'analytics'] as const;

/** Every service as its own process: one of each stateful service, n inference workers, n gateways. */
export class Cluster {
  readonly processes: ServiceProcess[] = [];

  constructor(private readonly options: ClusterOptions) {
    const { gateways, workers, port } = options;
    const entry = (service: string) => options.entries?.[service] ?? join('services', service, 'src', 'main.ts');
    for (const service of STATEFUL) this.add(service, entry(service), {});
    for (let i = 1; i <= workers; i++) this.add(`inference-${i}`, entry('inference'), {});
    for (let i = 1; i <= gateways; i++) {
      this.add(`gateway-${i}`, entry('gateway'), {
        PORT: String(port === 0 ? 0 : port + i - 1),
        HOST: options.host,
        ADMIN_TOKEN: options.adminToken,
      });
    }
  }

  /** Starts every process and resolves once each has said it is ready. */
  async start(timeoutMs = 180_000): Promise<void> {
    await Promise.all(this.processes.map((p) => mkdir(p.spec.env.DATA_DIR!, { recursive: true })));
    const allReady = new Promise<void>((done) => {
      this.whenAllReady = done;
    });
    for (const p of this.processes) p.start();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const waiting = this.processes.filter((p) => !p.ready).map((p) => p.spec.name);
        reject(new Error(`not ready after ${timeoutMs} ms: ${waiting.join(', ')}`));
      }, timeoutMs);
    });
    try {
      await Promise.race([allReady, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  gatewayUrls(): string[] {
    return this.processes.filter((p) => p.spec.name.startsWith('gateway-')).map((p) => p.ready?.url ?? '');
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop()));
  }

  private whenAllReady: () => void = () => {};

  private readonly events: ServiceProcessEvents = {
    onReady: (p, message: ReadyMessage) => {
      if (p.restarts > 0)
        this.options.log(`${p.spec.name} restarted, pid ${message.pid}${message.health ? `   health ${message.health}` : ''}`);
      if (this.processes.every((q) => q.ready)) this.whenAllReady();
    },
    onExit: (p, code, signal) => {
      this.options.log(`${p.spec.name} (pid ${p.ready?.pid ?? '?'}) exited with ${signal ?? `code ${code}`}`);
    },
    onOutput: (p, line) => this.options.log(`[${p.spec.name}] ${line}`),
  };

  private add(name: string, entry: string, env: Record<string, string>): void {
    const { options } = this;
    this.processes.push(
      new ServiceProcess(
        {
          name,
          entry,
          env: {
            ...options.env,
            NATS_URL: options.natsUrl,
            REDIS_URL: options.redisUrl,
            // A private folder per process: embedded stores are never shared (they lock it).
            DATA_DIR: resolve(options.dataDir, name),
            SEED_DEMO: 'false',
            // Every process's own health server, on a free port (reported when it is ready).
            HEALTH_PORT: '0',
            ...env,
          },
        },
        options.root,
        this.events,
      ),
    );
  }
}
