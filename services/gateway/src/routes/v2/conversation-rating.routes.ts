import { ConversationMessages, Rating, RatingBody } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { created } from '../../openapi/responses';
import type { VisitorReadCache } from '../../reads/visitor-read-cache';
import { visitorOf } from './visitor-of';

/** The visitor's satisfaction rating (CSAT) of a conversation: one per conversation, rating again replaces it. */
export const conversationRatingRoutes = (routes: Routes, { services }: GatewayDeps, visitorReads: VisitorReadCache): void => {
  routes.add(
    {
      method: 'POST',
      url: '/v2/conversations/:conversationId/rating',
      summary: 'Rate the conversation 1 to 5, with an optional comment; rating again changes the rating',
      tag: 'conversations',
      auth: 'session',
      body: RatingBody,
      responses: created('The stored rating', Rating),
    },
    async ({ session, params, body }) =>
      visitorReads.forgetAfter(
        visitorOf(session),
        services.send(ConversationMessages.rate, {
          ...visitorOf(session),
          conversationId: params.conversationId,
          score: body.score,
          comment: body.comment ?? null,
        }),
      ),
  );
};
