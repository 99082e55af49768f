import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InboxMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { AuditService } from '../services/audit.service';
import { CannedReplyService } from '../services/canned-reply.service';
import { VisitorService } from '../services/visitor.service';

/** The inbox's side of identity: canned replies (audited) and who a visitor is. */
@Controller()
export class InboxHandler {
  constructor(
    @Inject(CannedReplyService) private readonly replies: CannedReplyService,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(VisitorService) private readonly visitors: VisitorService,
  ) {}

  @MessagePattern(M.listCannedReplies.subject)
  listCannedReplies(@Payload() raw: unknown) {
    return handle(M.listCannedReplies, raw, async (req) => ({ data: await this.replies.list(req.projectId) }));
  }

  @MessagePattern(M.createCannedReply.subject)
  createCannedReply(@Payload() raw: unknown) {
    return handle(M.createCannedReply, raw, async (req) => {
      const reply = await this.replies.create(req.projectId, req.body);
      await this.audit.record(
        req.actor,
        req.projectId,
        'canned-reply.created',
        { type: 'canned-reply', id: reply.id },
        {
          shortcut: reply.shortcut,
          title: reply.title,
        },
      );
      return reply;
    });
  }

  @MessagePattern(M.updateCannedReply.subject)
  updateCannedReply(@Payload() raw: unknown) {
    return handle(M.updateCannedReply, raw, async (req) => {
      const reply = await this.replies.update(req.projectId, req.cannedReplyId, req.patch);
      const fields = Object.keys(req.patch).filter((field) => req.patch[field as keyof typeof req.patch] !== undefined);
      if (fields.length === 0) return reply;
      // The fields changed, by name: the content is the team's text, not the log's.
      await this.audit.record(
        req.actor,
        req.projectId,
        'canned-reply.updated',
        { type: 'canned-reply', id: reply.id },
        {
          shortcut: reply.shortcut,
          fields,
        },
      );
      return reply;
    });
  }

  @MessagePattern(M.deleteCannedReply.subject)
  deleteCannedReply(@Payload() raw: unknown) {
    return handle(M.deleteCannedReply, raw, async (req) => {
      const reply = await this.replies.delete(req.projectId, req.cannedReplyId);
      await this.audit.record(
        req.actor,
        req.projectId,
        'canned-reply.deleted',
        { type: 'canned-reply', id: reply.id },
        {
          shortcut: reply.shortcut,
        },
      );
      return { ok: true as const };
    });
  }

  @MessagePattern(M.visitorIdentity.subject)
  visitorIdentity(@Payload() raw: unknown) {
    return handle(M.visitorIdentity, raw, (req) => this.visitors.identityOf(req.projectId, req.visitorId));
  }
}
