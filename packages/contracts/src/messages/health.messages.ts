import { AnalyticsMessages } from './analytics.messages';
import { ConversationMessages } from './conversation.messages';
import { IdentityMessages } from './identity.messages';
import { InferenceMessages } from './inference.messages';
import { SearchMessages } from './search.messages';

/** The health message of every service behind the gateway, by service name. */
export const ServiceHealthMessages = {
  identity: IdentityMessages.health,
  conversation: ConversationMessages.health,
  search: SearchMessages.health,
  inference: InferenceMessages.health,
  analytics: AnalyticsMessages.health,
} as const;
