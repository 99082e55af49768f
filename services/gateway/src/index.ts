export { resolveAdminToken } from './auth/admin-token.store';
export { buildGateway } from './gateway.app';
export type { GatewayDeps } from './gateway.deps';
export { attachToReply, type ReplyTarget } from './replies/reply-replay';
