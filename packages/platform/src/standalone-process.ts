import { type Config, loadConfig } from './config/config';
import { startHealthServer } from './health/health-server';
import type { Infrastructure, PortName } from './infrastructure';
import { createInfrastructure } from './infrastructure.factory';
import { logger } from './logger/logger';
import { startTracing } from './tracing/tracing';

/** What a standalone process tells its parent (the cluster launcher) over IPC once it serves. */
export interface ReadyMessage {
  type: 'ready';
  service: string;
  pid: number;
  /** A gateway's base URL. */
  url?: string;
  /** The process's own health server (see startHealthServer). */
  health?: string;
}

export const announceReady = (message: Omit<ReadyMessage, 'type' | 'pid'>): void => {
  process.send?.({ type: 'ready', pid: process.pid, ...message } satisfies ReadyMessage);
};

/**
 * Dies loudly: an error nobody caught is logged before the process exits with 1, so a supervisor
 * (compose, the cluster launcher) restarts it and the reason is in the log.
 */
export const exitOnFatalErrors = (name: string): void => {
  const fatal = (kind: string) => (err: unknown) => {
    logger.fatal({ err, service: name }, `${name}: ${kind}, exiting`);
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));
};

/** Runs `stop` once on the first SIGINT or SIGTERM, then exits. */
export const stopOnSignals = (name: string, stop: () => Promise<void>): void => {
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, service: name }, `${name} stopping`);
    try {
      await stop();
    } catch (err) {
      logger.error({ err, service: name }, `${name} did not stop cleanly`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', (s) => void onSignal(s));
  process.on('SIGTERM', (s) => void onSignal(s));
  // Started by the cluster launcher: stop with it, even when it was killed and could not say so.
  if (process.connected) process.on('disconnect', () => void onSignal('parent gone'));
};

/**
 * One service as its own process (distributed mode): opens only the ports it uses, starts it,
 * serves its own health on HEALTH_PORT, announces it is ready, stops cleanly on a signal and exits
 * with a log line on a fatal error.
 */
export const runStandaloneService = async (
  name: string,
  ports: PortName[],
  start: (infra: Infrastructure) => Promise<{ close(): Promise<void> }>,
  describe: (infra: Infrastructure, config: Config) => Record<string, unknown> = () => ({}),
): Promise<void> => {
  exitOnFatalErrors(name);
  const config = loadConfig();
  const tracing = await startTracing(name);
  const infra = await createInfrastructure(config, { only: ports });
  const service = await start(infra);
  const health = await startHealthServer(name, config.HEALTH_PORT, config.HOST);
  stopOnSignals(name, async () => {
    await health.close();
    await service.close();
    await infra.close();
    await tracing?.shutdown();
  });
  logger.info({ transport: infra.transport.kind, health: health.url, ...describe(infra, config) }, `${name} service started`);
  announceReady({ service: name, health: health.url });
};
