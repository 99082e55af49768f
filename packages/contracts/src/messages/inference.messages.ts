import { z } from 'zod';
import { GenerateCompletionJob } from '../jobs';
import { Ack, defineMessage } from './define';

export const InferenceMessages = {
  /** Queue a stateless completion whose fragments go to `replyTo` (else the reply channel of `replyId`). */
  startCompletion: defineMessage('inference.cmd.start-completion.v1', GenerateCompletionJob, Ack),
  health: defineMessage('inference.qry.health.v1', z.object({}), Ack),
} as const;
