import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { describe, expect, it } from 'vitest';
import { describeEventStreamContract } from '../testing/event-stream.contract';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { JetStreamEventStream } from './jetstream.event-stream';

const available = await infraAvailable('nats');

describe.skipIf(!available)(infraSuiteTitle('JetStream event stream', 'nats', available), () => {
  describeEventStreamContract('JetStream', async () => {
    // A stream (and subjects) of its own for each test, so that runs and tests cannot collide.
    const run = randomUUID().replace(/-/g, '').slice(0, 12);
    const streamName = `PALAVER_TEST_${run}`;
    const subjectPrefix = `test${run}`;
    return {
      subjectPrefix,
      open: () => JetStreamEventStream.connect(infraUrl('nats'), streamName, [`${subjectPrefix}.>`], { redeliveryDelayMs: 50 }),
      cleanup: async () => {
        const nc = await connect({ servers: infraUrl('nats') });
        try {
          const jsm = await nc.jetstreamManager();
          await jsm.streams.delete(streamName).catch(() => undefined);
        } finally {
          await nc.close();
        }
      },
    };
  });

  it('rejects a publication no stream takes, and one another stream would store, saying why', async () => {
    const run = randomUUID().replace(/-/g, '').slice(0, 12);
    const ours = `PALAVER_TEST_${run}`;
    const theirs = `PALAVER_OTHER_${run}`;
    const stream = await JetStreamEventStream.connect(infraUrl('nats'), ours, [`test${run}.>`]);
    const nc = await connect({ servers: infraUrl('nats') });
    const jsm = await nc.jetstreamManager();
    try {
      await expect(stream.publish(`nowhere${run}.x`, { n: 1 }, randomUUID())).rejects.toThrow(`nothing on NATS answers nowhere${run}.x`);
      await jsm.streams.add({ name: theirs, subjects: [`other${run}.>`] });
      await expect(stream.publish(`other${run}.x`, { n: 2 }, randomUUID())).rejects.toThrow(/JetStream did not store other.*\.x: .*stream/);
      expect((await jsm.streams.info(theirs)).state.messages).toBe(0);
      await stream.publish(`test${run}.x`, { n: 3 }, randomUUID());
      expect((await jsm.streams.info(ours)).state.messages).toBe(1);
    } finally {
      await stream.close();
      await jsm.streams.delete(ours).catch(() => undefined);
      await jsm.streams.delete(theirs).catch(() => undefined);
      await nc.close();
    }
  });
});
