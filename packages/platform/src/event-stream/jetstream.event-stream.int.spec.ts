import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { describe } from 'vitest';
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
});
