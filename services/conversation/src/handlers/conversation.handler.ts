import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ConversationMessages as M } from '@palaver/contracts';
import { assertDependenciesUp, handle } from '@palaver/platform';
import { ConversationCommandService } from '../services/conversation-command.service';
import { ConversationQueryService } from '../services/conversation-query.service';
import { HandoffAudit } from '../services/handoff-audit';
import { HandoffCommandService } from '../services/handoff-command.service';
import { HandoffQueryService } from '../services/handoff-query.service';

@Controller()
export class ConversationHandler {
  constructor(
    @Inject(ConversationCommandService) private readonly commands: ConversationCommandService,
    @Inject(ConversationQueryService) private readonly queries: ConversationQueryService,
    @Inject(HandoffCommandService) private readonly handoffs: HandoffCommandService,
    @Inject(HandoffQueryService) private readonly handoffQueries: HandoffQueryService,
    @Inject(HandoffAudit) private readonly audit: HandoffAudit,
  ) {}

  @MessagePattern(M.create.subject)
  create(@Payload() raw: unknown) {
    return handle(M.create, raw, (req) => this.commands.create(req));
  }

  @MessagePattern(M.list.subject)
  list(@Payload() raw: unknown) {
    return handle(M.list, raw, (req) => this.queries.list(req));
  }

  @MessagePattern(M.get.subject)
  get(@Payload() raw: unknown) {
    return handle(M.get, raw, (req) => this.queries.get(req));
  }

  @MessagePattern(M.listMessages.subject)
  listMessages(@Payload() raw: unknown) {
    return handle(M.listMessages, raw, (req) => this.queries.listMessages(req));
  }

  @MessagePattern(M.postMessage.subject)
  postMessage(@Payload() raw: unknown) {
    return handle(M.postMessage, raw, (req) => this.commands.postMessage(req));
  }

  @MessagePattern(M.close.subject)
  close(@Payload() raw: unknown) {
    return handle(M.close, raw, (req) => this.commands.close(req));
  }

  @MessagePattern(M.rate.subject)
  rate(@Payload() raw: unknown) {
    return handle(M.rate, raw, (req) => this.commands.rate(req));
  }

  @MessagePattern(M.captureContact.subject)
  captureContact(@Payload() raw: unknown) {
    return handle(M.captureContact, raw, (req) => this.commands.captureContact(req));
  }

  @MessagePattern(M.setFeedback.subject)
  setFeedback(@Payload() raw: unknown) {
    return handle(M.setFeedback, raw, (req) => this.commands.setFeedback(req));
  }

  @MessagePattern(M.completeReply.subject)
  completeReply(@Payload() raw: unknown) {
    return handle(M.completeReply, raw, (req) => this.commands.completeReply(req));
  }

  @MessagePattern(M.failReply.subject)
  failReply(@Payload() raw: unknown) {
    return handle(M.failReply, raw, (req) => this.commands.failReply(req));
  }

  @MessagePattern(M.handoff.subject)
  handoff(@Payload() raw: unknown) {
    return handle(M.handoff, raw, ({ actor, ...req }) =>
      this.audit.around({ ...req, actor }, 'handoff.assigned', () => this.commands.handoff(req), { name: req.humanAgent.name }),
    );
  }

  @MessagePattern(M.postAgentMessage.subject)
  postAgentMessage(@Payload() raw: unknown) {
    return handle(M.postAgentMessage, raw, (req) => this.commands.postAgentMessage(req));
  }

  @MessagePattern(M.regenerateReply.subject)
  regenerateReply(@Payload() raw: unknown) {
    return handle(M.regenerateReply, raw, (req) => this.commands.regenerateReply(req));
  }

  @MessagePattern(M.events.subject)
  events(@Payload() raw: unknown) {
    return handle(M.events, raw, (req) => this.queries.events(req));
  }

  @MessagePattern(M.requestHandoff.subject)
  requestHandoff(@Payload() raw: unknown) {
    return handle(M.requestHandoff, raw, ({ actor, ...req }) =>
      this.audit.around({ ...req, actor }, 'handoff.requested', () => this.handoffs.requestHandoff(req)),
    );
  }

  @MessagePattern(M.claim.subject)
  claim(@Payload() raw: unknown) {
    return handle(M.claim, raw, ({ actor, ...req }) =>
      this.audit.around({ ...req, actor }, 'handoff.claimed', () => this.handoffs.claim(req), { mode: req.mode }),
    );
  }

  @MessagePattern(M.claimNext.subject)
  claimNext(@Payload() raw: unknown) {
    return handle(M.claimNext, raw, async ({ actor, ...req }) => {
      const claimed = await this.handoffs.claimNext(req);
      if (claimed.conversation) await this.audit.record(req.projectId, claimed.conversation.id, actor, 'handoff.claimed', { mode: 'next' });
      return claimed;
    });
  }

  @MessagePattern(M.agentClose.subject)
  agentClose(@Payload() raw: unknown) {
    return handle(M.agentClose, raw, ({ actor, ...req }) =>
      this.audit.around({ ...req, actor }, 'conversation.closed', () => this.handoffs.agentClose(req)),
    );
  }

  @MessagePattern(M.release.subject)
  release(@Payload() raw: unknown) {
    return handle(M.release, raw, ({ actor, ...req }) =>
      this.audit.around({ ...req, actor }, 'handoff.released', () => this.handoffs.release(req)),
    );
  }

  @MessagePattern(M.releaseHeld.subject)
  releaseHeld(@Payload() raw: unknown) {
    return handle(M.releaseHeld, raw, (req) => this.handoffs.releaseHeld(req));
  }

  @MessagePattern(M.requeueHeld.subject)
  requeueHeld(@Payload() raw: unknown) {
    return handle(M.requeueHeld, raw, (req) => this.handoffs.requeueHeld(req));
  }

  @MessagePattern(M.queue.subject)
  queue(@Payload() raw: unknown) {
    return handle(M.queue, raw, (req) => this.handoffQueries.queue(req));
  }

  @MessagePattern(M.agentConversation.subject)
  agentConversation(@Payload() raw: unknown) {
    return handle(M.agentConversation, raw, (req) => this.handoffQueries.agentConversation(req));
  }

  @MessagePattern(M.heldConversations.subject)
  heldConversations(@Payload() raw: unknown) {
    return handle(M.heldConversations, raw, (req) => this.handoffQueries.heldConversations(req));
  }

  @MessagePattern(M.agentEvents.subject)
  agentEvents(@Payload() raw: unknown) {
    return handle(M.agentEvents, raw, (req) => this.handoffQueries.agentEvents(req));
  }

  @MessagePattern(M.chats.subject)
  chats(@Payload() raw: unknown) {
    return handle(M.chats, raw, (req) => this.queries.chats(req));
  }

  @MessagePattern(M.chat.subject)
  chat(@Payload() raw: unknown) {
    return handle(M.chat, raw, (req) => this.queries.chat(req));
  }

  @MessagePattern(M.health.subject)
  health(@Payload() raw: unknown) {
    return handle(M.health, raw, async () => {
      assertDependenciesUp();
      return { ok: true as const };
    });
  }
}
