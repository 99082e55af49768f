import { describeJobQueueContract } from '../testing/job-queue.contract';
import { InProcessJobQueue } from './in-process.job-queue';

describeJobQueueContract('InProcessJobQueue', async () => ({ jobs: new InProcessJobQueue() }));
