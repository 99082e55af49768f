import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

/**
 * Runs crash-writer.ts on `dir`, SIGKILLs it once it has acknowledged `acks` writes, and returns
 * every line it printed for an acknowledged write (the kill lands while writes are in flight).
 */
export const writeUntilKilled = (
  kind: 'documents' | 'derived-documents' | 'events' | 'stream' | 'keys',
  dir: string,
  acks: number,
  /** Told the writer's process id as it starts (to check that the kill really ended it). */
  onSpawn?: (pid: number) => void,
): Promise<string[]> =>
  new Promise((resolve, reject) => {
    // node itself with tsx's loader (the tsx CLI would run the script in a grandchild that a kill misses).
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, kind, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const lines: string[] = [];
    let buffered = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`crash writer did not reach ${acks} acknowledged writes in time; stderr: ${stderr}`));
    }, 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) if (line.startsWith('ack ')) lines.push(line.slice(4));
      if (!killed && lines.length >= acks) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    // 'close' comes after the last output: a line printed after the kill was sent still counts
    // (an incomplete last line does not: its write was not acknowledged in full).
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && killed) resolve(lines);
      else reject(new Error(`crash writer exited on its own (signal ${signal}); stderr: ${stderr}`));
    });
  });
