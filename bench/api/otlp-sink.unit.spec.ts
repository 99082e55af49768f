import { afterEach, describe, expect, it } from 'vitest';
import { inSpan, startTracing } from '../../packages/platform/src/index';
import { startOtlpSink } from './otlp-sink';

describe("the bench's OTLP sink", () => {
  const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  afterEach(() => {
    if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
  });

  it('counts the spans the product exports over http/protobuf', async () => {
    const sink = await startOtlpSink();
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.env.OTEL_EXPORTER_OTLP_ENDPOINT;
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
