import { describePubSubContract } from '../testing/pubsub.contract';
import { InProcessPubSub } from './in-process.pubsub';

describePubSubContract('InProcessPubSub', async () => new InProcessPubSub());
