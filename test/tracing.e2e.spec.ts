import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, type Tracing } from '@palaver/platform';
import { infraAvailable, infraUrl } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newConversation, startE2eApp } from './support/e2e-app';

const available = (await infraAvailable('nats')) && (await infraAvailable('redis'));

const QUESTION = 'When does the shop open on Sundays?';

const modes = [
  { mode: 'embedded', skip: false, config: {} },
  {
    mode: `distributed (NATS + Redis)${available ? '' : ': unreachable, skipped'}`,
    skip: !available,
    config: available ? { NATS_URL: infraUrl('nats'), REDIS_URL: infraUrl('redis') } : {},
  },
];

describe.each(modes)('traces, $mode', ({ skip, config }) => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing | null;
  let e2e: E2eApp;
  beforeAll(async () => {
    if (skip) return;
    tracing = await startTracing('test', { exporter });
    e2e = await startE2eApp(config);
  });
  afterAll(async () => {
    await e2e?.stop();
    await tracing?.shutdown();
  });

  it.skipIf(skip)(
    'makes one streamed message one trace, from the gateway through conversation, search and inference, parent-linked',
    async () => {
      const { project, publishableKey } = await e2e.admin.createProject();
      // The model answers (an exact Q&A match would be answered verbatim, without a model call to trace).
      await e2e.admin.call('PATCH', `/projects/${project.id}`, { qnaOverride: { enabled: false, minScore: 0.9 } });
      await e2e.admin.call('POST', `/projects/${project.id}/qnas`, { question: QUESTION, answer: 'From ten to four on Sundays.' });
      const { token, conversationId } = await newConversation(e2e.url, publishableKey);
      exporter.reset();

      const streamed = await fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content: QUESTION, stream: true }),
      });
      expect(await streamed.text()).toContain('[DONE]');

      const root = 'gateway POST /v2/conversations/:conversationId/messages';
      const wanted = [
        root,
        'conversation.post-message',
        'search.retrieve',
        'inference.generate-reply',
        'inference.model-call',
        'conversation.complete-reply',
      ];
      const trace: ReadableSpan[] = await vi.waitFor(
        () => {
          const gateway = exporter.getFinishedSpans().find((span) => span.name === root);
          expect(gateway).toBeDefined();
          const traceId = gateway!.spanContext().traceId;
          const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
          expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(wanted));
          return spans;
        },
        { timeout: 10_000, interval: 50 },
      );

      // One tree: the gateway's span is the root, every other span's parent is in the trace.
      const ids = new Set(trace.map((span) => span.spanContext().spanId));
      const roots = trace.filter((span) => !span.parentSpanContext);
      expect(roots.map((span) => span.name)).toEqual([root]);
      for (const span of trace) if (span.parentSpanContext) expect(ids.has(span.parentSpanContext.spanId), span.name).toBe(true);

      // The work crossed the bus: the conversation's handler is a child of the gateway's request to it.
      const byName = (name: string) => trace.find((span) => span.name === name)!;
      const post = byName('conversation.post-message');
      expect(byName('conversation.post-message send').spanContext().spanId).toBe(post.parentSpanContext?.spanId);
      expect(post.attributes['palaver.project_id']).toBe(project.id);
      expect(post.attributes['palaver.conversation_id']).toBe(conversationId);
      expect(byName('inference.generate-reply').attributes['palaver.conversation_id']).toBe(conversationId);

      // The domain events went out on the stream inside the trace, and analytics' consumer took them
      // as part of it: the child of their publication, or, in a batch, linked to it.
      expect(trace.filter((span) => span.name === 'events.publish').length).toBeGreaterThan(0);
      const inTrace = (context: { traceId: string; spanId: string } | undefined) => context !== undefined && ids.has(context.spanId);
      await vi.waitFor(() => {
        const consumed = exporter
          .getFinishedSpans()
          .filter((span) => span.name === 'analytics.consume')
          .filter((span) => inTrace(span.parentSpanContext) || span.links.some((link) => inTrace(link.context)));
        expect(consumed.length).toBeGreaterThan(0);
      }, 5_000);

      // Ids, never text.
      for (const span of trace) for (const value of Object.values(span.attributes)) expect(String(value)).not.toContain('Sundays');

      // The metrics count the message's work, each with its trace as an exemplar.
      const metrics = await http(`${e2e.url}/metrics`, { token: e2e.app.adminToken });
      expect(metrics.headers.get('content-type')).toContain('application/openmetrics-text');
      const traceId = post.spanContext().traceId;
      expect(metrics.text).toMatch(
        new RegExp(
          `palaver_service_requests_total\\{service="conversation",operation="post-message",outcome="ok"\\} \\d+ # \\{[^}]*trace_id="${traceId}"`,
        ),
      );
      expect(metrics.text).toMatch(
        /palaver_jobs_total\{queue="inference",job="generate-reply",outcome="ok"\} \d+ # \{[^}]*trace_id="[0-9a-f]{32}"/,
      );
      expect(metrics.text).toMatch(/palaver_job_duration_seconds_bucket\{le="\+Inf",queue="inference",job="generate-reply"\} \d+/);
    },
  );
});
