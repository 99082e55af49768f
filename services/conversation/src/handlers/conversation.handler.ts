import { ConversationMessages as M } from '@palaver/contracts';
import { answerHealth, messageHandlers } from '@palaver/platform';
import { ConversationCommandService } from '../services/conversation-command.service';
import { ConversationQueryService } from '../services/conversation-query.service';
import { HandoffAudit } from '../services/handoff-audit';
import { HandoffCommandService } from '../services/handoff-command.service';
import { HandoffQueryService } from '../services/handoff-query.service';

export const ConversationHandler = messageHandlers(
  'ConversationHandler',
  {
    commands: ConversationCommandService,
    queries: ConversationQueryService,
    handoffs: HandoffCommandService,
    handoffQueries: HandoffQueryService,
    audit: HandoffAudit,
  },
  (on) => [
    on(M.create, ({ commands }, req) => commands.create(req)),
    on(M.list, ({ queries }, req) => queries.list(req)),
    on(M.get, ({ queries }, req) => queries.get(req)),
    on(M.listMessages, ({ queries }, req) => queries.listMessages(req)),
    on(M.postMessage, ({ commands }, req) => commands.postMessage(req)),
    on(M.close, ({ commands }, req) => commands.close(req)),
    on(M.rate, ({ commands }, req) => commands.rate(req)),
    on(M.captureContact, ({ commands }, req) => commands.captureContact(req)),
    on(M.setFeedback, ({ commands }, req) => commands.setFeedback(req)),
    on(M.completeReply, ({ commands }, req) => commands.completeReply(req)),
    on(M.failReply, ({ commands }, req) => commands.failReply(req)),
    on(M.handoff, ({ audit, commands }, { actor, ...req }) =>
      audit.around({ ...req, actor }, 'handoff.assigned', () => commands.handoff(req), { name: req.humanAgent.name }),
    ),
    on(M.postAgentMessage, ({ commands }, req) => commands.postAgentMessage(req)),
    on(M.regenerateReply, ({ commands }, req) => commands.regenerateReply(req)),
    on(M.events, ({ queries }, req) => queries.events(req)),
    on(M.requestHandoff, ({ audit, handoffs }, { actor, ...req }) =>
      audit.around({ ...req, actor }, 'handoff.requested', () => handoffs.requestHandoff(req)),
    ),
    on(M.claim, ({ audit, handoffs }, { actor, ...req }) =>
      audit.around({ ...req, actor }, 'handoff.claimed', () => handoffs.claim(req), { mode: req.mode }),
    ),
    on(M.claimNext, async ({ audit, handoffs }, { actor, ...req }) => {
      const claimed = await handoffs.claimNext(req);
      if (claimed.conversation) await audit.record(req.projectId, claimed.conversation.id, actor, 'handoff.claimed', { mode: 'next' });
      return claimed;
    }),
    on(M.agentClose, ({ audit, handoffs }, { actor, ...req }) =>
      audit.around({ ...req, actor }, 'conversation.closed', () => handoffs.agentClose(req)),
    ),
    on(M.release, ({ audit, handoffs }, { actor, ...req }) =>
      audit.around({ ...req, actor }, 'handoff.released', () => handoffs.release(req)),
    ),
    on(M.releaseHeld, ({ handoffs }, req) => handoffs.releaseHeld(req)),
    on(M.requeueHeld, ({ handoffs }, req) => handoffs.requeueHeld(req)),
    on(M.queue, ({ handoffQueries }, req) => handoffQueries.queue(req)),
    on(M.agentConversation, ({ handoffQueries }, req) => handoffQueries.agentConversation(req)),
    on(M.heldConversations, ({ handoffQueries }, req) => handoffQueries.heldConversations(req)),
    on(M.agentEvents, ({ handoffQueries }, req) => handoffQueries.agentEvents(req)),
    on(M.chats, ({ queries }, req) => queries.chats(req)),
    on(M.chat, ({ queries }, req) => queries.chat(req)),
    on(M.health, answerHealth),
  ],
);
