import { execFileSync } from 'node:child_process';

/**
 * Puts every thread of a process under SCHED_BATCH (`chrt`): it keeps its fair share of the CPU,
 * but waking up no longer lets it preempt the thread running on a core. The bench's NATS and Redis
 * servers share the product's two cores only because the bench runs on one machine, and each of
 * the product's writes that woke one of them could take the product's main thread off its core,
 * which as batch they no longer do (docs/deployment.md, "One process or one per service").
 * Returns whether it could (`chrt` may be missing, or not allowed).
 */
export const scheduleAsBatch = (pid: number): boolean => {
  try {
    execFileSync('chrt', ['--batch', '--all-tasks', '--pid', '0', String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
