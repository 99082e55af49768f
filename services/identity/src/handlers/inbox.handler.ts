import { InboxMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { AuditService } from '../services/audit.service';
import { CannedReplyService } from '../services/canned-reply.service';
import { VisitorService } from '../services/visitor.service';
import { audited } from './audited';

/** The inbox's side of identity: canned replies (audited) and who a visitor is. */
export const InboxHandler = messageHandlers(
  'InboxHandler',
  { replies: CannedReplyService, audit: AuditService, visitors: VisitorService },
  (on) => [
    on(M.listCannedReplies, async ({ replies }, req) => ({ data: await replies.list(req.projectId) })),
    on(M.createCannedReply, ({ replies, audit }, req) =>
      audited(audit, req, 'canned-reply.created', 'canned-reply', replies.create(req.projectId, req.body), (reply) => ({
        shortcut: reply.shortcut,
        title: reply.title,
      })),
    ),
    on(M.updateCannedReply, async ({ replies, audit }, req) => {
      const reply = await replies.update(req.projectId, req.cannedReplyId, req.patch);
      const fields = Object.keys(req.patch).filter((field) => req.patch[field as keyof typeof req.patch] !== undefined);
      // The fields changed, by name: the content is the team's text, not the log's.
      if (fields.length > 0) {
        await audit.record(
          req.actor,
          req.projectId,
          'canned-reply.updated',
          { type: 'canned-reply', id: reply.id },
          { shortcut: reply.shortcut, fields },
        );
      }
      return reply;
    }),
    on(M.deleteCannedReply, async ({ replies, audit }, req) => {
      await audited(audit, req, 'canned-reply.deleted', 'canned-reply', replies.delete(req.projectId, req.cannedReplyId), (reply) => ({
        shortcut: reply.shortcut,
      }));
      return { ok: true as const };
    }),
    on(M.visitorIdentity, ({ visitors }, req) => visitors.identityOf(req.projectId, req.visitorId)),
  ],
);
