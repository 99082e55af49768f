import { ConversationMessages, Rating, RatingBody, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import type { VisitorReadCache } from '../../reads/visitor-read-cache';

const ConversationPath = z.object({ conversationId: Uuid });

/** The visitor's satisfaction rating (CSAT) of a conversation: one per conversation, rating again replaces it. */
export const conversationRatingRoutes = (routes: Routes, { services }: GatewayDeps, visitorReads: VisitorReadCache): void => {
  routes.add(
    {
      method: 'POST',
      url: '/v2/conversations/:conversationId/rating',
      summary: 'Rate the conversation 1 to 5, with an optional comment; rating again changes the rating',
      tag: 'conversations',
      auth: 'session',
      params: ConversationPath,
      body: RatingBody,
      responses: { 201: { description: 'The stored rating', schema: Rating } },
    },
    async ({ session, params, body, reply }) => {
      const scope = { projectId: session.projectId, visitorId: session.visitorId };
      const rating = await services.send(ConversationMessages.rate, {
        ...scope,
        conversationId: params.conversationId,
        score: body.score,
        comment: body.comment ?? null,
      });
      visitorReads.forget(scope);
      reply.status(201).send(rating);
    },
  );
};
