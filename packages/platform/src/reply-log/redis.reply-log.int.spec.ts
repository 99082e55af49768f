import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { describeReplyLogContract } from '../testing/reply-log.contract';
import { RedisReplyLog } from './redis.reply-log';

const available = await infraAvailable('redis');

describe.skipIf(!available)(infraSuiteTitle('RedisReplyLog', 'redis', available), () => {
  describeReplyLogContract(
    'RedisReplyLog',
    async (ttlMs) => new RedisReplyLog(infraUrl('redis'), ttlMs, `test:reply-log:${randomUUID()}:`),
  );

  it('lets another process (gateway) replay what one process (worker) appends', async () => {
    const prefix = `test:reply-log:${randomUUID()}:`;
    const worker = new RedisReplyLog(infraUrl('redis'), 60_000, prefix);
    const gateway = new RedisReplyLog(infraUrl('redis'), 60_000, prefix);
    try {
      await worker.append('r', { type: 'delta', delta: 'Hi' });
      const seen: unknown[] = [];
      const reading = (async () => {
        for await (const entry of gateway.follow('r', { idleMs: 2_000 })) {
          seen.push(entry);
          if ((entry as { type: string }).type === 'finish') return;
        }
      })();
      await worker.append('r', { type: 'finish' });
      await reading;
      expect(seen).toEqual([{ type: 'delta', delta: 'Hi' }, { type: 'finish' }]);
    } finally {
      await Promise.all([worker.close(), gateway.close()]);
    }
  });
});
