import { Contact, ContactBody, ConversationMessages, IdentityMessages } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { ok } from '../../openapi/responses';
import type { VisitorReadCache } from '../../reads/visitor-read-cache';
import { visitorOf } from './visitor-of';

/**
 * `POST /v2/conversations/{id}/contact`: the visitor leaves an email (and a name) when nobody
 * could answer. Stored on the conversation (an event, so agents, the admin API and the analytics
 * feed see it) and then on the visitor.
 */
export const contactRoutes = (routes: Routes, { services }: GatewayDeps, visitorReads: VisitorReadCache): void => {
  routes.add(
    {
      method: 'POST',
      url: '/v2/conversations/:conversationId/contact',
      summary: 'Leave an email (and a name) so the team can get back to the visitor',
      tag: 'conversations',
      auth: 'session',
      body: ContactBody,
      responses: ok('The contact as stored', Contact),
    },
    async ({ session, params, body }) => {
      const visitor = visitorOf(session);
      const contact = await visitorReads.forgetAfter(
        visitor,
        services.send(ConversationMessages.captureContact, {
          ...visitor,
          conversationId: params.conversationId,
          email: body.email,
          name: body.name ?? null,
        }),
      );
      await services.send(IdentityMessages.setVisitorContact, { ...visitor, contact });
      return contact;
    },
  );
};
