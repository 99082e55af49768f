// The API's shapes, from the contracts (type-only: no schema code reaches the bundle).
export type {
  AdminConversation,
  AssistantRecord,
  ChatWidgetConfig,
  CreatedKey,
  DislikedAnswer,
  DocumentRecord,
  FeedbackSummary,
  KeyRecord,
  Message,
  ProjectRecord,
  Qna,
  AnalyticsEvent,
  AgentConversation,
  AgentEvent,
  AgentInfo,
  AgentRecord,
  CreatedAgent,
} from '@palaver/contracts';

export interface PagedList<T> {
  object: 'list';
  total: number;
  limit: number;
  offset: number;
  data: T[];
}
