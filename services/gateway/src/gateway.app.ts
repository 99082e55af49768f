import { AppError, IdentityMessages } from '@palaver/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { AdminAccess } from './auth/admin-access';
import { AdminGuard } from './auth/admin-token';
import { Authenticator } from './auth/authenticator';
import { DEFAULT_IDENTITY_CACHE, IdentityCache } from './auth/identity-cache';
import { AgentPresence } from './availability/agent-presence';
import { TeamAvailability } from './availability/team-availability';
import type { GatewayDeps } from './gateway.deps';
import { registerCors } from './http/cors';
import { toErrorResponse } from './http/errors';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors';
import { registerJsonBodyParser } from './http/json-body';
import { LiveStreamRegistry } from './http/live-stream-registry';
import { registerMetrics } from './http/metrics';
import { Routes } from './http/routes';
import { registerSecurityHeaders } from './http/security-headers';
import { exemptRequestsInFlight, timeoutOptions } from './http/timeouts';
import { registerTracing } from './http/tracing';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { IdempotentRequests } from './idempotency/idempotent-requests';
import { MessageLimits } from './limits/message-limits';
import { ApiDocs } from './openapi/api-docs';
import { asyncApiDocument } from './openapi/async-api';
import { agentFeedChanges, visitorChanges } from './reads/announcements';
import { VisitorReadCache } from './reads/visitor-read-cache';
import { ReplyRequests } from './replies/ask-reply';
import { ReplyHub } from './replies/reply-hub';
import { agentAdminRoutes } from './routes/admin/agents.admin.routes';
import { analyticsAdminRoutes } from './routes/admin/analytics.admin.routes';
import { auditAdminRoutes } from './routes/admin/audit.admin.routes';
import { conversationAdminRoutes } from './routes/admin/conversations.admin.routes';
import { conversationBrowseAdminRoutes } from './routes/admin/conversations-browse.admin.routes';
import { documentUploadAdminRoutes } from './routes/admin/document-upload.admin.routes';
import { inboxAdminRoutes } from './routes/admin/inbox.admin.routes';
import { insightsAdminRoutes } from './routes/admin/insights.admin.routes';
import { knowledgeAdminRoutes } from './routes/admin/knowledge.admin.routes';
import { memberAdminRoutes } from './routes/admin/members.admin.routes';
import { privacyAdminRoutes } from './routes/admin/privacy.admin.routes';
import { projectAdminRoutes } from './routes/admin/projects.admin.routes';
import { sourcesAdminRoutes } from './routes/admin/sources.admin.routes';
import { userAdminRoutes } from './routes/admin/users.admin.routes';
import { webhooksAdminRoutes } from './routes/admin/webhooks.admin.routes';
import { agentRoutes } from './routes/agent/agents.routes';
import { agentInboxRoutes } from './routes/agent/inbox.routes';
import { presenceRoutes } from './routes/agent/presence.routes';
import { authRoutes } from './routes/auth/auth.routes';
import { ssoRoutes } from './routes/auth/sso.routes';
import { dashboardRoutes } from './routes/dashboard.routes';
import { healthRoutes } from './routes/health.routes';
import { customerErasureRoutes } from './routes/surface-b/customer-erasure.routes';
import { surfaceBRoutes } from './routes/surface-b/surface-b.routes';
import { completionRoutes } from './routes/v2/completions.routes';
import { contactRoutes } from './routes/v2/contact.routes';
import { conversationEventRoutes } from './routes/v2/conversation-events.routes';
import { conversationRatingRoutes } from './routes/v2/conversation-rating.routes';
import { conversationRoutes } from './routes/v2/conversations.routes';
import { identityRoutes } from './routes/v2/identity.routes';
import { projectRoutes } from './routes/v2/projects.routes';
import { replyStreamRoutes } from './routes/v2/reply-stream.routes';
import { searchRoutes } from './routes/v2/search.routes';
import { typingRoutes } from './routes/v2/typing.routes';
import { widgetRoutes } from './routes/widget.routes';
import { TypingHub } from './typing/typing-hub';

/** v2 bodies are small (content ≤ 10,000 chars); admin bodies carry whole documents. */
const V2_BODY_LIMIT = 256 * 1024;
const ADMIN_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * Proxies whose X-Forwarded-* headers are believed: those on this machine or a private network (a
 * reverse proxy, a container network's). A client connecting from anywhere else is its own
 * address, so it cannot pick another one to escape the admin API's throttle of wrong tokens.
 */
const TRUSTED_PROXIES = ['loopback', 'linklocal', 'uniquelocal'];

/** The admin API's paths (its routes and `/metrics`): credentials are checked before anything is said about them. */
const ADMIN_PATH = /^\/(?:admin(?:[/?]|$)|metrics(?:[/?]|$))/;

/** A claim outlives the longest request (a reply waited for), so only a dead gateway's claim expires. */
const idempotencyClaimTtlSeconds = (config: GatewayDeps['config']): number =>
  Math.ceil(Math.max(config.REPLY_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS) / 1000) + 60;

export const buildGateway = async (deps: GatewayDeps): Promise<FastifyInstance> => {
  const app = Fastify({
    logger: false,
    bodyLimit: V2_BODY_LIMIT,
    trustProxy: TRUSTED_PROXIES,
    frameworkErrors,
    clientErrorHandler,
    ...timeoutOptions({ requestTimeoutMs: deps.config.HTTP_REQUEST_TIMEOUT_MS, idleTimeoutMs: deps.config.HTTP_IDLE_TIMEOUT_MS }),
  });

  await registerTracing(app);
  registerSecurityHeaders(app);
  registerJsonBodyParser(app);
  exemptRequestsInFlight(app);
  const adminGuard = new AdminGuard(deps.adminToken, deps.kv);
  const access = new AdminAccess(adminGuard, deps.services, deps.config.USER_SESSION_IDLE_TTL_SECONDS);
  app.setErrorHandler((err, _request, reply) => {
    const { status, body, headers } = toErrorResponse(err);
    return reply.status(status).headers(headers).send(body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    // An unknown admin path answers as a known one would without the token: 401, not a map of the API.
    if (ADMIN_PATH.test(request.url)) await access.authenticate(request, reply);
    const { status, body } = toErrorResponse(new AppError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
    return reply.status(status).send(body);
  });
  const metrics = registerMetrics(app);
  const identity = new IdentityCache(deps.services, {
    ...DEFAULT_IDENTITY_CACHE,
    sessionIdleTtlSeconds: deps.config.SESSION_IDLE_TTL_SECONDS,
    clock: deps.clock,
  });
  // Following identity before listening to it: a revocation ends the credential's live streams.
  const live = new LiveStreamRegistry({
    perSession: deps.config.LIVE_STREAMS_PER_SESSION,
    perAgent: deps.config.LIVE_STREAMS_PER_AGENT,
    sessionExpiresInMs: async (token) => (await deps.services.send(IdentityMessages.sessionExpiry, { token })).expiresInMs,
    clock: deps.clock,
  });
  identity.follow((change) => live.apply(change));
  await identity.start(deps.pubsub);
  app.addHook('onClose', () => identity.stop());
  // Before Fastify waits for the requests in flight: a live stream would otherwise hold it open.
  app.addHook('preClose', async () => live.closeAll());
  await registerCors(app, identity);
  const changes = { visitors: visitorChanges(), agentFeeds: agentFeedChanges() };
  for (const announcements of Object.values(changes)) {
    await announcements.start(deps.pubsub);
    app.addHook('onClose', () => announcements.stop());
  }
  const visitorReads = new VisitorReadCache();
  visitorReads.follow(changes.visitors);
  app.addHook('onClose', async () => visitorReads.stop());
  const replies = new ReplyHub();
  await replies.start(deps.pubsub);
  app.addHook('onClose', () => replies.stop());
  const typing = new TypingHub(deps.pubsub, deps.clock);
  await typing.start();
  app.addHook('onClose', () => typing.stop());

  const docs = new ApiDocs();
  const idempotency = new IdempotentRequests(new IdempotencyStore(deps.kv, idempotencyClaimTtlSeconds(deps.config)), deps);
  const routes = new Routes(app, docs, new Authenticator(identity, deps.services, access), idempotency);
  const limits = new MessageLimits(deps.kv, deps.clock);
  const presence = new AgentPresence(deps.kv, deps.services);
  const team = new TeamAvailability(presence, deps.clock);
  healthRoutes(routes, deps);
  identityRoutes(routes, deps, identity);
  projectRoutes(routes, deps, team);
  searchRoutes(routes, deps);
  const replyRequests = new ReplyRequests(deps.services, limits, replies, deps.config.REPLY_TIMEOUT_MS);
  conversationRoutes(routes, deps, identity, visitorReads, replyRequests, idempotency, team);
  contactRoutes(routes, deps, visitorReads);
  completionRoutes(routes, deps, identity, replyRequests);
  replyStreamRoutes(routes, deps, visitorReads);
  conversationRatingRoutes(routes, deps, visitorReads);
  conversationEventRoutes(routes, deps, changes.visitors, live, typing);
  typingRoutes(routes, deps, typing);
  agentRoutes(routes, deps, changes.agentFeeds, live, presence, typing);
  agentInboxRoutes(routes, deps, typing);
  presenceRoutes(routes, presence);
  surfaceBRoutes(routes, deps, identity, replyRequests, idempotency);
  customerErasureRoutes(routes, deps, identity);
  widgetRoutes(app, deps);
  authRoutes(routes, deps);
  ssoRoutes(routes, deps);

  await app.register(async (admin) => {
    admin.addHook('onRoute', (route) => {
      route.bodyLimit = ADMIN_BODY_LIMIT;
    });
    // Callback-style: the admin token passes without a promise.
    admin.addHook('onRequest', (request, reply, done) => {
      const pending = access.authenticate(request, reply);
      if (pending) pending.then(() => done(), done);
      else done();
    });
    const adminRoutes = routes.on(admin);
    // Each group of admin routes under its tag of the API document.
    const adminGroup = (tag: string) => adminRoutes.scope({ auth: 'admin', tag });
    projectAdminRoutes(adminGroup('admin: projects'), deps, identity);
    knowledgeAdminRoutes(adminGroup('admin: knowledge'), deps);
    sourcesAdminRoutes(adminGroup('admin: knowledge'), deps);
    privacyAdminRoutes(adminGroup('admin: privacy'), deps, identity);
    await documentUploadAdminRoutes(admin, adminGroup('admin: knowledge'), deps);
    conversationAdminRoutes(adminGroup('admin: human agents'), deps);
    conversationBrowseAdminRoutes(adminGroup('admin: conversations'), deps);
    analyticsAdminRoutes(adminGroup('admin: analytics'), deps);
    webhooksAdminRoutes(adminGroup('admin: webhooks'), deps);
    insightsAdminRoutes(adminGroup('admin: insights'), deps);
    agentAdminRoutes(adminGroup('admin: human agents'), deps, identity);
    inboxAdminRoutes(adminGroup('admin: inbox'), deps);
    userAdminRoutes(adminGroup('admin: users'), deps);
    memberAdminRoutes(adminGroup('admin: members'), deps);
    auditAdminRoutes(adminGroup('admin: audit'), deps);
    admin.get('/metrics', async (request, reply) => {
      access.authorize(access.principalOf(request), 'global.operations', undefined);
      return reply.type(metrics.contentType).send(await metrics.metrics());
    });
  });

  await dashboardRoutes(app);

  const document = docs.document();
  app.get('/openapi.json', async () => document);
  const events = asyncApiDocument();
  app.get('/asyncapi.json', async () => events);
  return app;
};
