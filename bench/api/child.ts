import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../packages/launcher/src/node-flags';
import { builtServer } from './built-servers';

export interface BenchChild {
  url: string;
  ready: Record<string, unknown>;
  process: ChildProcess;
  /** Sends a command (with `args`) and resolves with the child's answer named `answer`. */
  ask<T>(cmd: string, answer: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Runs a bench server with the services' V8 flags, as built when the bench built it
 * (built-servers.ts), else from its source through tsx, and resolves once it sent `ready`. Its
 * output is shown only when it fails; dying in the middle of a run ends the bench, since every
 * figure after it would mean nothing.
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
    const collect = (d: Buffer) => output.push(d.toString());
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output.join('')}`)), 60_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output.join('')}`));
    };
    child.once('exit', onExit);
    child.once('message', (ready: { cmd: string; url: string }) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      const onDeath = (code: number | null, signal: string | null) => {
        process.stderr.write(`${script} died (${signal ?? code}):\n${output.join('').slice(-4_000)}\n`);
        process.exit(1);
      };
      child.once('exit', onDeath);
      const ask = <T>(cmd: string, answer: string, args: Record<string, unknown> = {}) =>
        new Promise<T>((done) => {
          const listen = (m: { cmd: string }) => {
            if (m.cmd !== answer) return;
            child.off('message', listen);
            done(m as T);
          };
          child.on('message', listen);
          child.send({ ...args, cmd });
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
