import { AppError, IdentityMessages } from '@palaver/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { AdminGuard } from './auth/admin-token';
import { Authenticator } from './auth/authenticator';
import { DEFAULT_IDENTITY_CACHE, IdentityCache } from './auth/identity-cache';
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
import { MessageLimits } from './limits/message-limits';
import { ApiDocs } from './openapi/api-docs';
import { asyncApiDocument } from './openapi/async-api';
import { agentFeedChanges, visitorChanges } from './reads/announcements';
import { VisitorReadCache } from './reads/visitor-read-cache';
import { ReplyRequests } from './replies/ask-reply';
import { ReplyHub } from './replies/reply-hub';
import { agentAdminRoutes } from './routes/admin/agents.admin.routes';
import { analyticsAdminRoutes } from './routes/admin/analytics.admin.routes';
import { conversationAdminRoutes } from './routes/admin/conversations.admin.routes';
import { conversationBrowseAdminRoutes } from './routes/admin/conversations-browse.admin.routes';
import { documentUploadAdminRoutes } from './routes/admin/document-upload.admin.routes';
import { insightsAdminRoutes } from './routes/admin/insights.admin.routes';
import { knowledgeAdminRoutes } from './routes/admin/knowledge.admin.routes';
import { projectAdminRoutes } from './routes/admin/projects.admin.routes';
import { sourcesAdminRoutes } from './routes/admin/sources.admin.routes';
import { webhooksAdminRoutes } from './routes/admin/webhooks.admin.routes';
import { agentRoutes } from './routes/agent/agents.routes';
import { dashboardRoutes } from './routes/dashboard.routes';
import { healthRoutes } from './routes/health.routes';
import { surfaceBRoutes } from './routes/surface-b/surface-b.routes';
import { completionRoutes } from './routes/v2/completions.routes';
import { conversationEventRoutes } from './routes/v2/conversation-events.routes';
import { conversationRatingRoutes } from './routes/v2/conversation-rating.routes';
import { conversationRoutes } from './routes/v2/conversations.routes';
import { identityRoutes } from './routes/v2/identity.routes';
import { projectRoutes } from './routes/v2/projects.routes';
import { replyStreamRoutes } from './routes/v2/reply-stream.routes';
import { searchRoutes } from './routes/v2/search.routes';
import { widgetRoutes } from './routes/widget.routes';

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
  app.setErrorHandler((err, _request, reply) => {
    const { status, body, headers } = toErrorResponse(err);
    return reply.status(status).headers(headers).send(body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    // An unknown admin path answers as a known one would without the token: 401, not a map of the API.
    if (ADMIN_PATH.test(request.url)) await adminGuard.check(request);
    const { status, body } = toErrorResponse(new AppError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
    return reply.status(status).send(body);
  });
  const metrics = registerMetrics(app);
  const identity = new IdentityCache(deps.services, {
    ...DEFAULT_IDENTITY_CACHE,
    sessionIdleTtlSeconds: deps.config.SESSION_IDLE_TTL_SECONDS,
  });
  // Following identity before listening to it: a revocation ends the credential's live streams.
  const live = new LiveStreamRegistry({
    perSession: deps.config.LIVE_STREAMS_PER_SESSION,
    perAgent: deps.config.LIVE_STREAMS_PER_AGENT,
    sessionExpiresInMs: async (token) => (await deps.services.send(IdentityMessages.sessionExpiry, { token })).expiresInMs,
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

  const docs = new ApiDocs();
  const routes = new Routes(app, docs, new Authenticator(identity, deps.services));
  const limits = new MessageLimits(deps.kv, deps.clock);
  healthRoutes(routes, deps);
  identityRoutes(routes, deps, identity);
  projectRoutes(routes, deps);
  searchRoutes(routes, deps);
  const replyRequests = new ReplyRequests(deps.services, limits, replies, deps.config.REPLY_TIMEOUT_MS);
  conversationRoutes(routes, deps, identity, visitorReads, replyRequests);
  completionRoutes(routes, deps, identity, replyRequests);
  replyStreamRoutes(routes, deps, visitorReads);
  conversationRatingRoutes(routes, deps, visitorReads);
  conversationEventRoutes(routes, deps, changes.visitors, live);
  agentRoutes(routes, deps, changes.agentFeeds, live);
  surfaceBRoutes(routes, deps, identity, replyRequests);
  widgetRoutes(app, deps);

  await app.register(async (admin) => {
    admin.addHook('onRoute', (route) => {
      route.bodyLimit = ADMIN_BODY_LIMIT;
    });
    // Callback-style: the admin token passes without a promise.
    admin.addHook('onRequest', (request, _reply, done) => {
      const refused = adminGuard.check(request);
      if (refused) refused.catch(done);
      else done();
    });
    const adminRoutes = routes.on(admin);
    projectAdminRoutes(adminRoutes, deps, identity);
    knowledgeAdminRoutes(adminRoutes, deps);
    sourcesAdminRoutes(adminRoutes, deps);
    await documentUploadAdminRoutes(admin, adminRoutes, deps);
    conversationAdminRoutes(adminRoutes, deps);
    conversationBrowseAdminRoutes(adminRoutes, deps);
    analyticsAdminRoutes(adminRoutes, deps);
    webhooksAdminRoutes(adminRoutes, deps);
    insightsAdminRoutes(adminRoutes, deps);
    agentAdminRoutes(adminRoutes, deps, identity);
    admin.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()));
  });

  await dashboardRoutes(app);

  const document = docs.document();
  app.get('/openapi.json', async () => document);
  const events = asyncApiDocument();
  app.get('/asyncapi.json', async () => events);
  return app;
};
