import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * OpenTelemetry, set up once per process. Nothing is registered unless an OTLP endpoint is
 * configured (or a test hands an exporter in): the API's default tracer then makes non-recording
 * spans, and every span helper here checks `tracingEnabled()` first, so the hot path does no work.
 * The SDK, its exporters and instrumentations are loaded only then, so a process that does not
 * trace does not pay for loading them either.
 */
let enabled = false;

export const tracingEnabled = (): boolean => enabled;

export const tracer = () => trace.getTracer('palaver');

export interface Tracing {
  /** Exports what is buffered and unregisters the provider. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Spans go here, one by one (tests: an InMemorySpanExporter), instead of OTLP. */
  exporter?: SpanExporter;
  env?: NodeJS.ProcessEnv;
}

/** Whether the environment asks for traces: an OTLP endpoint set, and the SDK not switched off. */
export const tracingConfigured = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.OTEL_SDK_DISABLED !== 'true' &&
  env.OTEL_TRACES_EXPORTER !== 'none' &&
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

/**
 * Starts tracing for this process when configured, naming it `OTEL_SERVICE_NAME` or
 * `palaver-<service>`. The exporter honours the standard OTEL_EXPORTER_OTLP_* variables, the
 * sampler OTEL_TRACES_SAMPLER(_ARG), the batch processor OTEL_BSP_*. Returns null when not configured.
 */
export const startTracing = async (service: string, options: TracingOptions = {}): Promise<Tracing | null> => {
  const env = options.env ?? process.env;
  if (enabled || (!options.exporter && !tracingConfigured(env))) return null;
  const [
    { registerInstrumentations },
    { IORedisInstrumentation },
    { MongoDBInstrumentation },
    { resourceFromAttributes },
    sdk,
    { NodeTracerProvider },
  ] = await Promise.all([
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@opentelemetry/instrumentation-mongodb'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-trace-node'),
  ]);
  const processor = options.exporter ? new sdk.SimpleSpanProcessor(options.exporter) : new sdk.BatchSpanProcessor(await otlpExporter(env));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || `palaver-${service}` }),
    spanProcessors: [processor],
  });
  provider.register();
  const unregisterInstrumentations = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Command names only: arguments carry message text (job data, token chunks).
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      new MongoDBInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  enabled = true;
  return {
    async shutdown() {
      enabled = false;
      unregisterInstrumentations();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
};

const otlpExporter = async (env: NodeJS.ProcessEnv): Promise<SpanExporter> => {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  switch (protocol) {
    case 'grpc':
      return new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter();
    case 'http/json':
      return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
    default:
      throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be grpc, http/protobuf or http/json (got ${protocol})`);
  }
};
