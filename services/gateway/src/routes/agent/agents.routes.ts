import {
  type Actor,
  AgentConversation,
  AgentEvent,
  type AgentFeedChange,
  AgentInfo,
  AgentMessageBody,
  CloseConversationBody,
  ConversationMessages,
  ErrorBody,
  HeldConversations,
  ListMessagesQuery,
  Message,
  plainList,
  QueueQuery,
  queryInt,
} from '@palaver/contracts';
import { z } from 'zod';
import type { AgentPresence } from '../../availability/agent-presence';
import type { GatewayDeps } from '../../gateway.deps';
import { resumeCursor, serveLiveEvents } from '../../http/live-events';
import type { LiveStreamRegistry } from '../../http/live-stream-registry';
import type { Routes } from '../../http/routes';
import { created, dataList, ok } from '../../openapi/responses';
import type { Announcements } from '../../reads/announcements';
import type { TypingHub } from '../../typing/typing-hub';

const EventsQuery = z.object({ after: queryInt(0, 1_000_000_000).optional() });
const FEED_PAGE = 100;

/** The agents' API: a person of the project works the handoff queue with an `ak_…` token. */
export const agentRoutes = (
  routes: Routes,
  { services }: GatewayDeps,
  feedChanges: Announcements<AgentFeedChange>,
  live: LiveStreamRegistry,
  presence: AgentPresence,
  typing: TypingHub,
): void => {
  const agents = routes.scope({ auth: 'agent', tag: 'agents' });
  const asRef = (agent: AgentInfo) => ({ id: agent.agentId, name: agent.name, image: agent.image });
  /** Who the audit log names: the signed-in person, or the agent token. */
  const actorOf = (agent: AgentInfo): Actor =>
    agent.email !== undefined
      ? { type: 'user', id: agent.agentId, email: agent.email }
      : { type: 'agent-token', id: agent.agentId, email: null };
  /** A conversation of the agent's project, acted on by the agent holding it. */
  const asHolder = (agent: AgentInfo, params: { conversationId: string }) => ({
    projectId: agent.projectId,
    conversationId: params.conversationId,
    humanAgentId: agent.agentId,
  });

  agents.get(
    '/agent/v1/me',
    {
      summary: 'The calling agent',
      responses: ok('Agent', AgentInfo),
    },
    async ({ agent }) => agent,
  );

  agents.get(
    '/agent/v1/queue',
    {
      summary: 'Conversations waiting for a person, oldest first, each with its unanswered visitor messages',
      query: QueueQuery,
      responses: ok('Queue', dataList(AgentConversation)),
    },
    async ({ agent, query }) => services.send(ConversationMessages.queue, { projectId: agent.projectId, limit: query.limit }),
  );

  agents.post(
    '/agent/v1/queue/claim',
    {
      summary: 'Atomically take the oldest waiting conversation (204 when the queue is empty)',
      responses: {
        200: { description: 'The conversation, now held by the caller', schema: AgentConversation },
        204: { description: 'Nothing waits' },
      },
    },
    async ({ agent, reply }) => {
      const { conversation } = await services.send(ConversationMessages.claimNext, {
        projectId: agent.projectId,
        humanAgent: asRef(agent),
        actor: actorOf(agent),
      });
      if (conversation === null) return reply.status(204).send();
      return conversation;
    },
  );

  agents.get(
    '/agent/v1/conversations',
    {
      summary: "The open conversations the caller holds, and the feed's position to follow them from (/events?after=feedCursor)",
      responses: ok('Held conversations', HeldConversations),
    },
    async ({ agent }) => services.send(ConversationMessages.heldConversations, { projectId: agent.projectId, humanAgentId: agent.agentId }),
  );

  agents.get(
    '/agent/v1/conversations/:conversationId',
    {
      summary: "One conversation of the agent's project, with its handoff state",
      responses: ok('Conversation', AgentConversation),
    },
    async ({ agent, params }) => services.send(ConversationMessages.agentConversation, { projectId: agent.projectId, ...params }),
  );

  agents.get(
    '/agent/v1/conversations/:conversationId/messages',
    {
      summary: 'All messages of a conversation, oldest first (same filters as v2)',
      query: ListMessagesQuery,
      responses: ok('Messages', plainList(Message)),
    },
    async ({ agent, params, query }) => {
      const conversation = await services.send(ConversationMessages.agentConversation, { projectId: agent.projectId, ...params });
      return services.send(ConversationMessages.listMessages, {
        projectId: agent.projectId,
        visitorId: conversation.visitorId,
        conversationId: params.conversationId,
        query,
      });
    },
  );

  agents.post(
    '/agent/v1/conversations/:conversationId/handoff',
    {
      summary: 'Take this conversation (waiting or AI-answered); 409 when another agent holds it',
      responses: ok('The conversation, now held by the caller', AgentConversation),
    },
    async ({ agent, params }) =>
      services.send(ConversationMessages.claim, {
        projectId: agent.projectId,
        ...params,
        humanAgent: asRef(agent),
        mode: 'take',
        actor: actorOf(agent),
      }),
  );

  agents.post(
    '/agent/v1/conversations/:conversationId/close',
    {
      summary: 'Close the conversation (only its holder), with an optional reason',
      body: CloseConversationBody,
      responses: ok('The closed conversation', AgentConversation),
    },
    async ({ agent, params, body }) =>
      services.send(ConversationMessages.agentClose, {
        ...asHolder(agent, params),
        closeReason: body.closeReason ?? null,
        actor: actorOf(agent),
      }),
  );

  agents.post(
    '/agent/v1/conversations/:conversationId/release',
    {
      summary: 'Hand the conversation back to the assistant (only its holder)',
      responses: ok('The conversation, answered by the AI again', AgentConversation),
    },
    async ({ agent, params }) => services.send(ConversationMessages.release, { ...asHolder(agent, params), actor: actorOf(agent) }),
  );

  agents.post(
    '/agent/v1/conversations/:conversationId/messages',
    {
      summary: 'Answer the visitor as the calling agent (role human_agent); only while holding the conversation',
      body: AgentMessageBody,
      responses: created('Message', Message),
    },
    async ({ agent, params, body }) =>
      services.send(ConversationMessages.postAgentMessage, { ...asHolder(agent, params), content: body.content }),
  );

  agents.get(
    '/agent/v1/events',
    {
      summary: "The project's handoff events, live (SSE; Last-Event-ID or ?after resumes). See docs/agents-api.md",
      query: EventsQuery,
      responses: {
        200: {
          description: 'text/event-stream of AgentEvent (event name = type), and `typing` events (VisitorTypingEvent, no id)',
          schema: AgentEvent,
          mediaType: 'text/event-stream',
        },
        429: { description: 'The agent already holds LIVE_STREAMS_PER_AGENT feeds (RATE_LIMIT_EXCEEDED, Retry-After)', schema: ErrorBody },
      },
    },
    async ({ agent, query, request, reply }) => {
      // Counted against the agent's cap, and ended when the agent is revoked.
      const stream = live.open({ kind: 'agent', agent });
      // An online agent stays online while its feed is open, and goes away about 2 minutes after it closes.
      const stopPresence = await presence.whileFeedOpen(agent);
      try {
        // Asked again when the conversation service announces a new entry of the project's feed.
        await serveLiveEvents(
          reply,
          resumeCursor(request, query.after),
          async (after) => {
            const { data } = await services.send(ConversationMessages.agentEvents, { projectId: agent.projectId, after, limit: FEED_PAGE });
            // Visitor messages go to the agent holding the conversation; queue changes to every agent.
            const mine = data.filter((event) => event.type !== 'message.visitor' || event.humanAgentId === agent.agentId);
            return {
              events: mine.map((event) => ({ id: event.id, type: event.type, data: event })),
              cursor: data.length > 0 ? Number(data.at(-1)!.id) : after,
              more: data.length === FEED_PAGE,
            };
          },
          {
            wake: (notify) => feedChanges.listen({ projectId: agent.projectId }, notify),
            until: stream.signal,
            // Visitors typing in the project's human-handled conversations, never stored: no SSE id.
            ephemeral: (push) => typing.forAgents(agent.projectId, (event) => push({ type: 'typing', data: event })),
          },
        );
      } finally {
        stopPresence();
        stream.release();
      }
    },
  );
};
