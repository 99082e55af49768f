// The API's shapes, from the contracts (type-only: no schema code reaches the bundle).
export type {
  AdminConversation,
  AgentConversation,
  AgentEvent,
  AgentInfo,
  AgentRecord,
  AnalyticsEvent,
  AssistantRecord,
  ChatWidgetConfig,
  CreatedAgent,
  CreatedIdentitySecret,
  CreatedKey,
  DislikedAnswer,
  DocumentRecord,
  FeedbackSummary,
  HeldConversations,
  InsightsSummary,
  KeyRecord,
  Message,
  ProjectRecord,
  Qna,
  Source,
  SourcePage,
  SourcePageStatus,
  Webhook as WebhookRecord,
  WebhookDelivery as WebhookDeliveryRecord,
  UnansweredGroup,
} from '@palaver/contracts';

export interface PagedList<T> {
  object: 'list';
  total: number;
  limit: number;
  offset: number;
  data: T[];
}
