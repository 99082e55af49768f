import { StopReplyResponse } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { ok } from '../../openapi/responses';
import type { VisitorReadCache } from '../../reads/visitor-read-cache';
import { attachToReply } from '../../replies/reply-replay';
import { replyInProgress, stopReply } from '../../replies/stop-reply';
import { visitorOf } from './visitor-of';

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
      responses: {
        200: { description: 'text/event-stream: the UI message stream of the reply in progress', mediaType: 'text/event-stream' },
        204: { description: 'No reply is being generated in this conversation' },
      },
    },
    async ({ session, params, reply }) => {
      const scope = { ...visitorOf(session), conversationId: params.conversationId };
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
      responses: ok('Whether a reply was stopped, and which', StopReplyResponse),
    },
    async ({ session, params }) => {
      const scope = { ...visitorOf(session), conversationId: params.conversationId };
      const stopped = await stopReply(deps, scope);
      if (stopped.stopped) visitorReads.forget(visitorOf(session));
      return stopped;
    },
  );
};
