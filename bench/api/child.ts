import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../packages/launcher/src/node-flags';
import { builtServer } from './built-servers';

export interface BenchChild {
  url: string;
  ready: Record<string, unknown>;
  process: ChildProcess;
  /** Sends `cmd` (with `args`) and resolves with the child's message named `answer`. */
  ask<T>(cmd: string, answer: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Runs a bench server with the services' V8 flags (as built when built-servers.ts built it, else
 * through tsx) and resolves once it sent `ready`. Its output is shown only when it fails; dying
 * mid-run ends the bench, since every figure after it would mean nothing.
 */
export const startChild = (script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchChild> =>
  new Promise((resolve, reject) => {
    const built = builtServer(script);
    const entry = built === null ? ['--import', 'tsx', join(import.meta.dirname, script)] : [built];
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, ...entry], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const output: string[] = [];
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d: Buffer) => output.push(d.toString()));
    const failed = (why: string) => reject(new Error(`${script} ${why}:\n${output.join('')}`));
    const timer = setTimeout(() => failed('did not start'), 60_000);
    const onExit = (code: number | null) => failed(`exited with ${code}`);
    const onDeath = (code: number | null, signal: string | null) => {
      process.stderr.write(`${script} died (${signal ?? code}):\n${output.join('').slice(-4_000)}\n`);
      process.exit(1);
    };
    child.once('exit', onExit);
    child.once('message', (ready: { url: string }) => {
      clearTimeout(timer);
      child.off('exit', onExit).once('exit', onDeath);
      const ask = <T>(cmd: string, answer: string, args: Record<string, unknown> = {}) =>
        new Promise<T>((done) => {
          const listen = (m: { cmd: string }) => {
            if (m.cmd !== answer) return;
            child.off('message', listen);
            done(m as T);
          };
          child.on('message', listen).send({ ...args, cmd });
        });
      const stop = () =>
        new Promise<void>((done) => {
          child.off('exit', onDeath);
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(kill);
            done();
          });
          child.send({ cmd: 'close' });
        });
      resolve({ url: ready.url, ready, process: child, ask, stop });
    });
  });
