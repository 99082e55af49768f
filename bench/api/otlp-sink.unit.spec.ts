import { afterEach, describe, expect, it } from 'vitest';
import { inSpan, startTracing } from '../../packages/platform/src/index';
import { startOtlpSink } from './otlp-sink';

const KEYS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL'] as const;
const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]));
afterEach(() => {
  for (const key of KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

describe("the bench's OTLP sink", () => {
  it.each(['http/protobuf', 'http/json'])('counts the spans the product exports over %s', async (protocol) => {
    const sink = await startOtlpSink();
    try {
      Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
      const tracing = await startTracing('bench-sink-spec');
      await inSpan('bench.outer', {}, () => Promise.all([inSpan('bench.one', {}, async () => 1), inSpan('bench.two', {}, async () => 2)]));
      await tracing!.shutdown();
      expect(sink.counts).toMatchObject({ requests: 1, spans: 3 });
      expect(sink.counts.bytes).toBeGreaterThan(100);
    } finally {
      await sink.close();
    }
  });
});
