import { spawn } from 'node:child_process';

export const INFRA_LOCK = '/tmp/palaver-infra.lock';

/**
 * Holds the shared-infrastructure lock (`flock`) until the returned release is called or this
 * process ends: flock runs `cat`, which exits when its stdin (our pipe) closes.
 */
export const holdInfraLock = (): Promise<() => void> =>
  new Promise((resolve, reject) => {
    const child = spawn('flock', [INFRA_LOCK, 'sh', '-c', 'echo locked; exec cat'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.once('error', reject);
    child.stdout.once('data', () => resolve(() => child.stdin.end()));
  });
