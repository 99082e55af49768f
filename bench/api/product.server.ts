/**
 * The product for `pnpm bench:api`, in its own process: the launcher's embedded app (every service
 * and the gateway; NATS, Redis, BullMQ when their URLs are set) answering with the instant model.
 * Talks to the bench over IPC: `ready` with its URL; `memory` (after a GC), `release`, and
 * `profile-start` / `profile-stop` (its main thread's CPU profile, written to the given path) on request.
 */
import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { startEmbeddedApp } from '@palaver/launcher';
import { createInfrastructure, loadConfig } from '@palaver/platform';
import { InstantChatModel } from './instant.chat-model';

const config = loadConfig();
const model = new InstantChatModel(process.env.BENCH_HOLD_REPLIES === 'true');
const infra = await createInfrastructure(config);
const app = await startEmbeddedApp(config, { ...infra, chatModel: model });

/** Sampling every 500 us: enough samples in seconds, at a cost the profile's run states (its messages/s). */
const PROFILE_INTERVAL_US = 500;
let profiler: Session | null = null;

const startProfile = async (): Promise<void> => {
  profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US });
  await profiler.post('Profiler.start');
};

const stopProfile = async (path: string): Promise<void> => {
  const { profile } = await profiler!.post('Profiler.stop');
  profiler!.disconnect();
  profiler = null;
  await writeFile(path, JSON.stringify(profile));
};

process.on('message', (message: { cmd: string; path?: string }) => {
  if (message.cmd === 'memory') {
    globalThis.gc?.();
    process.send!({ cmd: 'memory', usage: process.memoryUsage() });
  } else if (message.cmd === 'release') {
    model.release();
    process.send!({ cmd: 'released' });
  } else if (message.cmd === 'profile-start') {
    void startProfile().then(() => process.send!({ cmd: 'profiling' }));
  } else if (message.cmd === 'profile-stop') {
    void stopProfile(message.path!).then(() => process.send!({ cmd: 'profiled' }));
  } else if (message.cmd === 'close') {
    void app.close().finally(() => process.exit(0));
  }
});
process.send!({ cmd: 'ready', url: app.url, adminToken: app.adminToken });
