import { AnalyticsMessages, AnswerUnansweredBody, InsightsRange, InsightsSummary, Qna, UnansweredList, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { existingProject } from './existing-project';

const ProjectPath = z.object({ projectId: Uuid });
const GroupPath = ProjectPath.extend({ groupId: Uuid });

/** What owners learn: the summary figures and the questions the assistant could not answer (analytics service). */
export const insightsAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: insights' } as const;
  const existing = (projectId: string) => existingProject(services, projectId);

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/projects/:projectId/insights/summary',
      permission: 'analytics.read',
      summary:
        'Conversations, messages, resolution and handoff rates, like rate, CSAT and first agent reply time of the conversations started in a range',
      params: ProjectPath,
      query: InsightsRange,
      responses: { 200: { description: 'Summary', schema: InsightsSummary } },
    },
    async ({ params, query }) =>
      services.send(AnalyticsMessages.insightsSummary, { projectId: await existing(params.projectId), ...query }),
  );

  routes.add(
    {
      ...admin,
      method: 'GET',
      url: '/admin/v1/projects/:projectId/insights/unanswered',
      permission: 'analytics.read',
      summary: 'Questions the assistant declined, found no knowledge for, or whose reply was disliked, grouped by meaning',
      params: ProjectPath,
      query: InsightsRange,
      responses: { 200: { description: 'Open groups, most asked first', schema: UnansweredList } },
    },
    async ({ params, query }) => services.send(AnalyticsMessages.listUnanswered, { projectId: await existing(params.projectId), ...query }),
  );

  routes.add(
    {
      ...admin,
      method: 'POST',
      url: '/admin/v1/projects/:projectId/insights/unanswered/:groupId/answer',
      permission: 'knowledge.write',
      summary: "Answer a group: creates a Q&A entry (the group's question unless given) and marks the group answered",
      params: GroupPath,
      body: AnswerUnansweredBody,
      responses: { 201: { description: 'The Q&A entry created', schema: Qna } },
    },
    async ({ params, body, actor, reply }) => {
      const { qna } = await services.send(AnalyticsMessages.answerUnanswered, {
        projectId: await existing(params.projectId),
        actor,
        groupId: params.groupId,
        ...body,
      });
      reply.status(201).send(qna);
    },
  );
};
