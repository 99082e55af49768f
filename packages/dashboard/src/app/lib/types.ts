// The API's shapes, from the contracts (type-only: no schema code reaches the bundle).
export type {
  AdminConversation,
  AgentConversation,
  AgentEvent,
  AgentInfo,
  AgentRecord,
  AnalyticsEvent,
  AssistantRecord,
  AuditEntry,
  AuditPage,
  ChatWidgetConfig,
  CreatedAgent,
  CreatedIdentitySecret,
  CreatedKey,
  CreatedUser,
  DislikedAnswer,
  DocumentRecord,
  FeedbackSummary,
  HeldConversations,
  InsightsSummary,
  KeyRecord,
  Me,
  Member,
  Message,
  ProjectRecord,
  Qna,
  Source,
  SourcePage,
  SourcePageStatus,
  UnansweredGroup,
  UserRecord,
  Webhook as WebhookRecord,
  WebhookDelivery as WebhookDeliveryRecord,
} from '@palaver/contracts';

export interface PagedList<T> {
  object: 'list';
  total: number;
  limit: number;
  offset: number;
  data: T[];
}
