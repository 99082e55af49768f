import { randomUUID } from 'node:crypto';
import {
  type AgentInfo,
  AgentNote,
  AgentNoteBody,
  AgentNoteList,
  AppError,
  CannedReplyList,
  ConversationMessages,
  InboxMessages,
  VisitorContext,
} from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { created, noContent, ok } from '../../openapi/responses';
import type { TypingHub } from '../../typing/typing-hub';

/** The inbox's calls beside the handoff: canned replies, internal notes, typing and the visitor panel. */
export const agentInboxRoutes = (routes: Routes, { services, clock }: GatewayDeps, typing: TypingHub): void => {
  const agents = routes.scope({ auth: 'agent', tag: 'agents' });
  const asRef = (agent: AgentInfo) => ({ id: agent.agentId, name: agent.name, image: agent.image });

  agents.get(
    '/agent/v1/canned-replies',
    {
      summary: "The project's canned replies, sorted by shortcut",
      responses: ok('Canned replies', CannedReplyList),
    },
    async ({ agent }) => services.send(InboxMessages.listCannedReplies, { projectId: agent.projectId }),
  );

  agents.post(
    '/agent/v1/conversations/:conversationId/notes',
    {
      summary: 'Add an internal note (any agent of the project; never shown to the visitor)',
      body: AgentNoteBody,
      responses: created('The note', AgentNote),
    },
    async ({ agent, params, body }) =>
      services.send(InboxMessages.addNote, {
        projectId: agent.projectId,
        ...params,
        noteId: randomUUID(),
        content: body.content,
        author: asRef(agent),
      }),
  );

  agents.get(
    '/agent/v1/conversations/:conversationId/notes',
    {
      summary: "The conversation's internal notes, oldest first",
      responses: ok('Notes', AgentNoteList),
    },
    async ({ agent, params }) => services.send(InboxMessages.listNotes, { projectId: agent.projectId, ...params }),
  );

  agents.post(
    '/agent/v1/conversations/:conversationId/typing',
    {
      summary: 'Tell the visitor the agent is typing (for TYPING_TTL_MS; only the holder, else 409; at most one per 2 s, extras dropped)',
      idempotent: false,
      responses: noContent('Sent (or dropped as too soon after the last one)'),
    },
    async ({ agent, params }) => {
      const conversation = await services.send(ConversationMessages.agentConversation, { projectId: agent.projectId, ...params });
      if (conversation.handoff !== 'claimed' || conversation.humanAgent?.id !== agent.agentId) {
        throw new AppError('CONFLICT', 'Only the agent holding the conversation can type in it', {
          resource: 'conversation',
          conflictingField: 'humanAgent',
          conversationId: params.conversationId,
        });
      }
      if (conversation.status === 'open' && typing.accept(params.conversationId, 'agent')) {
        await typing.publish(agent.projectId, {
          type: 'typing',
          occurredAt: clock.now().toISOString(),
          conversationId: params.conversationId,
          by: 'agent',
          humanAgent: asRef(agent),
        });
      }
    },
  );

  agents.get(
    '/agent/v1/conversations/:conversationId/visitor',
    {
      summary: 'Who the visitor is: identity, contact, last page, browser, their other conversations',
      responses: ok('The visitor panel', VisitorContext),
    },
    async ({ agent, params }): Promise<VisitorContext> => {
      const context = await services.send(InboxMessages.visitorContext, { projectId: agent.projectId, ...params });
      const visitor = await services.send(InboxMessages.visitorIdentity, { projectId: agent.projectId, visitorId: context.visitorId });
      return {
        visitorId: context.visitorId,
        identity: visitor.identity,
        contact: context.contact ?? visitor.contact,
        page: context.page,
        userAgent: context.userAgent,
        previousConversations: context.previousConversations,
      };
    },
  );
};
