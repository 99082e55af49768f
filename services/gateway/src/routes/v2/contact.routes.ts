import { Contact, ContactBody, ConversationMessages, IdentityMessages, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import type { VisitorReadCache } from '../../reads/visitor-read-cache';

const ConversationPath = z.object({ conversationId: Uuid });

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
      params: ConversationPath,
      body: ContactBody,
      responses: { 200: { description: 'The contact as stored', schema: Contact } },
    },
    async ({ session, params, body }) => {
      const scope = { projectId: session.projectId, visitorId: session.visitorId };
      const contact = await services.send(ConversationMessages.captureContact, {
        ...scope,
        conversationId: params.conversationId,
        email: body.email,
        name: body.name ?? null,
      });
      visitorReads.forget(scope);
      await services.send(IdentityMessages.setVisitorContact, { ...scope, contact });
      return contact;
    },
  );
};
