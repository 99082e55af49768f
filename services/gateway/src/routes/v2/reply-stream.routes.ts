import { StopReplyResponse, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import type { VisitorReadCache } from '../../reads/visitor-read-cache';
import { attachToReply } from '../../replies/reply-replay';
import { replyInProgress, stopReply } from '../../replies/stop-reply';

const ConversationPath = z.object({ conversationId: Uuid });
const TAG = 'conversations';

/** The reply in progress of a conversation: resumed from its first chunk (after a reload), or stopped. */
export const replyStreamRoutes = (routes: Routes, deps: GatewayDeps, visitorReads: VisitorReadCache): void => {
  routes.add(
    {
      method: 'GET',
      url: '/v2/conversations/:conversationId/stream',
      summary: 'The reply being generated, as the UI message stream from its first chunk, then live to [DONE] (resume after a reload)',
      tag: TAG,
      auth: 'session',
      params: ConversationPath,
      responses: {
        200: { description: 'text/event-stream: the UI message stream of the reply in progress', mediaType: 'text/event-stream' },
        204: { description: 'No reply is being generated in this conversation' },
      },
    },
    async ({ session, params, reply }) => {
      const scope = { projectId: session.projectId, visitorId: session.visitorId, conversationId: params.conversationId };
      const assistantMessageId = await replyInProgress(deps.services, scope);
      if (assistantMessageId === null) return reply.status(204).send();
      await attachToReply(deps, reply, { conversationId: params.conversationId, assistantMessageId });
    },
  );

  routes.add(
    {
      method: 'POST',
      url: '/v2/conversations/:conversationId/stop',
      summary: 'Stop the reply being generated: it is stored with the text so far (status complete, finish reason other)',
      tag: TAG,
      auth: 'session',
      params: ConversationPath,
      responses: { 200: { description: 'Whether a reply was stopped, and which', schema: StopReplyResponse } },
    },
    async ({ session, params }) => {
      const scope = { projectId: session.projectId, visitorId: session.visitorId, conversationId: params.conversationId };
      const stopped = await stopReply(deps, scope);
      if (stopped.stopped) visitorReads.forget({ projectId: session.projectId, visitorId: session.visitorId });
      return stopped;
    },
  );
};
