import { describe } from 'vitest';
import { describePubSubContract } from '../testing/pubsub.contract';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { RedisPubSub } from './redis.pubsub';

const available = await infraAvailable('redis');

describe.skipIf(!available)(infraSuiteTitle('RedisPubSub', 'redis', available), () => {
  describePubSubContract('RedisPubSub', async () => new RedisPubSub(infraUrl('redis')));
});
