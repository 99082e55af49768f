import { AnalyticsMessages, AnswerUnansweredBody, InsightsRange, InsightsSummary, Qna, UnansweredList } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { created, ok } from '../../openapi/responses';
import { existingProject } from './existing-project';

/** What owners learn: the summary figures and the questions the assistant could not answer (analytics service). */
export const insightsAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  const existing = (projectId: string) => existingProject(services, projectId);

  admin.get(
    '/admin/v1/projects/:projectId/insights/summary',
    {
      permission: 'analytics.read',
      summary:
        'Conversations, messages, resolution and handoff rates, like rate, CSAT and first agent reply time of the conversations started in a range',
      query: InsightsRange,
      responses: ok('Summary', InsightsSummary),
    },
    async ({ params, query }) =>
      services.send(AnalyticsMessages.insightsSummary, { projectId: await existing(params.projectId), ...query }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/insights/unanswered',
    {
      permission: 'analytics.read',
      summary: 'Questions the assistant declined, found no knowledge for, or whose reply was disliked, grouped by meaning',
      query: InsightsRange,
      responses: ok('Open groups, most asked first', UnansweredList),
    },
    async ({ params, query }) => services.send(AnalyticsMessages.listUnanswered, { projectId: await existing(params.projectId), ...query }),
  );

  admin.post(
    '/admin/v1/projects/:projectId/insights/unanswered/:groupId/answer',
    {
      permission: 'knowledge.write',
      summary: "Answer a group: creates a Q&A entry (the group's question unless given) and marks the group answered",
      body: AnswerUnansweredBody,
      responses: created('The Q&A entry created', Qna),
    },
    async ({ params, body, actor }) => {
      const { qna } = await services.send(AnalyticsMessages.answerUnanswered, {
        projectId: await existing(params.projectId),
        actor,
        groupId: params.groupId,
        ...body,
      });
      return qna;
    },
  );
};
