export { PalaverApiError, PalaverNetworkError } from '../../client/src/errors';
export {
  type ListWindow,
  type PagedList,
  PalaverAdmin,
  type PalaverAdminOptions,
  type ProjectItems,
  type ReadableProjectItems,
  type SourceCalls,
} from './admin.client';
export type * from './contract-types';
export {
  type ChatInput,
  type ChatReply,
  type Page,
  type Paging,
  PalaverServer,
  type PalaverServerOptions,
  type StreamedChatReply,
} from './surface-b.client';
export { MAX_USER_TOKEN_SECONDS, signUserToken, type UserTokenClaims } from './user-token';
export { verifyWebhook, type WebhookHeaders, WebhookVerificationError } from './webhook';
