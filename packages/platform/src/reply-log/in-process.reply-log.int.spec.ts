import { describeReplyLogContract } from '../testing/reply-log.contract';
import { InProcessReplyLog } from './in-process.reply-log';

describeReplyLogContract('InProcessReplyLog', async (ttlMs) => new InProcessReplyLog(ttlMs));
