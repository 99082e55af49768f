import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { inSpan } from './spans';
import { startTracing, tracingConfigured, tracingEnabled } from './tracing';

const OTEL_KEYS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_SERVICE_NAME'] as const;
const saved = Object.fromEntries(OTEL_KEYS.map((key) => [key, process.env[key]]));

afterEach(() => {
  for (const key of OTEL_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

const body = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
  });

describe('tracing set-up', () => {
  it('records nothing unless an OTLP endpoint is configured', async () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(await startTracing('idle', { env: {} })).toBeNull();
    expect(tracingEnabled()).toBe(false);
    expect(await inSpan('idle.work', {}, async (span) => span)).toBeUndefined();
  });

  it('exports spans over OTLP (http/json) to the configured endpoint, named for the service', async () => {
    const received: Array<{ path: string; text: string }> = [];
    const collector = createServer(async (request, response) => {
      received.push({ path: request.url ?? '', text: await body(request) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
      process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
      process.env.OTEL_SERVICE_NAME = 'palaver-otlp-test';
      const tracing = await startTracing('otlp-test');
      expect(tracing).not.toBeNull();
      await inSpan('search.retrieve', { 'palaver.project_id': 'p-1' }, async () => undefined);
      await tracing!.shutdown();
      expect(tracingEnabled()).toBe(false);
      expect(received.map((r) => r.path)).toEqual(['/v1/traces']);
      const exported = JSON.parse(received[0]!.text);
      const resource = exported.resourceSpans[0].resource.attributes;
      expect(resource).toContainEqual({ key: 'service.name', value: { stringValue: 'palaver-otlp-test' } });
      expect(exported.resourceSpans[0].scopeSpans[0].spans[0].name).toBe('search.retrieve');
    } finally {
      collector.close();
    }
  });

  it('refuses an OTLP protocol it does not know', async () => {
    await expect(
      startTracing('bad', { env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon' } }),
    ).rejects.toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
    expect(tracingEnabled()).toBe(false);
  });
});
