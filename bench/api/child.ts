import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../packages/launcher/src/node-flags';
import { builtServer } from './built-servers';

const ROOT = join(import.meta.dirname, '..', '..');

export interface BenchChild {
  url: string;
  ready: Record<string, unknown>;
  process: ChildProcess;
  /** Sends a command (with `args`) and resolves with the child's answer named `answer`. */
  ask<T>(cmd: string, answer: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Runs a bench server (`node` with the services' V8 flags, so the pid is the server's own, for memory): as built when the bench
 * built it (built-servers.ts), else from its source with `--import tsx`. Resolves once it sent `ready`. Its output goes to the
 * bench's stderr only when it fails.
 */
export const startChild = (script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchChild> =>
  new Promise((resolve, reject) => {
    const built = builtServer(script);
    const entry = built === null ? ['--import', 'tsx', join(import.meta.dirname, script)] : [built];
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, ...entry], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output.join('')}`)), 60_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output.join('')}`));
    };
    child.once('exit', onExit);
    child.once('message', (message: { cmd: string; url: string }) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      // Dying in the middle of a run makes every number after it meaningless: say so, with why.
      const onDeath = (code: number | null, signal: string | null) => {
        process.stderr.write(`${script} died (${signal ?? code}):\n${output.join('').slice(-4_000)}\n`);
        process.exit(1);
      };
      child.once('exit', onDeath);
      resolve({
        url: message.url,
        ready: message,
        process: child,
        ask: <T>(cmd: string, answer: string, args: Record<string, unknown> = {}) =>
          new Promise<T>((done) => {
            const listen = (m: { cmd: string }) => {
              if (m.cmd !== answer) return;
              child.off('message', listen);
              done(m as T);
            };
            child.on('message', listen);
            child.send({ ...args, cmd });
          }),
        stop: () =>
          new Promise<void>((done) => {
            child.off('exit', onDeath);
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.send({ cmd: 'close' });
          }),
      });
    });
  });
