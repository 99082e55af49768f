import { z } from 'zod';
import { Uuid } from '../common';
import { ChatMessage } from '../v2/completion';
import { Ack, defineMessage } from './define';

export const InferenceMessages = {
  /** Queue a stateless completion whose fragments go to the reply channel `replyId`. */
  startCompletion: defineMessage(
    'inference.cmd.start-completion.v1',
    z.object({ projectId: Uuid, replyId: Uuid, assistantId: Uuid.nullable(), messages: z.array(ChatMessage) }),
    Ack,
  ),
  health: defineMessage('inference.qry.health.v1', z.object({}), Ack),
} as const;
