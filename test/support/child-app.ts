import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ChildApp {
  url: string;
  output: string[];
  process: ChildProcess;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * `pnpm start`'s entry point in a child process (or `entry`, e.g. a built dist/embedded.js, run
 * from `cwd`); resolves once it printed its URL. Node itself is the child (tsx only as its
 * `--import` loader, not the `tsx` wrapper that forks another node), so `kill('SIGKILL')` kills
 * the app and not a wrapper that would leave it running as an orphan.
 */
export const startChildApp = (
  env: Record<string, string>,
  entry: string[] = ['--import', 'tsx', join(ROOT, 'packages/launcher/src/main.ts')],
  cwd = ROOT,
): Promise<ChildApp> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, entry, {
      cwd,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const timer = setTimeout(() => reject(new Error(`app did not start:\n${output.join('')}`)), 60_000);
    const onData = (data: Buffer) => {
      output.push(data.toString());
      const match = /API base URL\s+(http:\/\/\S+)\/v2/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          output,
          process: child,
          kill: (signal) =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill(signal);
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code}:\n${output.join('')}`));
    });
  });

/** Reads a value the launcher printed, e.g. `Publishable key`. */
export const printed = (app: ChildApp, label: string): string => {
  const match = new RegExp(`${label}\\s+(\\S+)`).exec(app.output.join(''));
  if (!match) throw new Error(`"${label}" not printed:\n${app.output.join('')}`);
  return match[1]!;
};

/** Whether a process with this pid still exists (signal 0 only checks). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
