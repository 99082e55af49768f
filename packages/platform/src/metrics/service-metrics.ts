import { trace } from '@opentelemetry/api';
import { Counter, Histogram, Registry } from 'prom-client';
import { tracingEnabled } from '../tracing/tracing';

const SECONDS_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

type Labels = Record<string, string>;

/**
 * This process's service-side metrics: messages handled, jobs run and webhook deliveries made,
 * counted by outcome, with their latency. When the process traces, the registry speaks
 * OpenMetrics and each observation carries its trace id as an exemplar (prom-client supports
 * exemplars only there), so a slow bucket leads to a trace.
 */
export class ServiceMetrics {
  readonly registry: Registry;
  private readonly exemplars: boolean;
  private readonly requests: Counter;
  private readonly requestSeconds: Histogram;
  private readonly jobs: Counter;
  private readonly jobSeconds: Histogram;
  private readonly deliveries: Counter;
  private readonly deliverySeconds: Histogram;

  constructor(exemplars: boolean) {
    this.exemplars = exemplars;
    this.registry = registryOf(exemplars ? Registry.OPENMETRICS_CONTENT_TYPE : Registry.PROMETHEUS_CONTENT_TYPE);
    const registers = [this.registry];
    const counter = (name: string, help: string, labelNames: string[]) =>
      new Counter({ name, help, labelNames, registers, enableExemplars: exemplars });
    const seconds = (name: string, help: string, labelNames: string[]) =>
      new Histogram({ name, help, labelNames, buckets: SECONDS_BUCKETS, registers, enableExemplars: exemplars });
    this.requests = counter(
      'palaver_service_requests_total',
      'Messages handled by a service, by service, operation and outcome (ok or the error code)',
      ['service', 'operation', 'outcome'],
    );
    this.requestSeconds = seconds('palaver_service_request_duration_seconds', 'Time to handle a message, by service and operation', [
      'service',
      'operation',
    ]);
    this.jobs = counter('palaver_jobs_total', 'Job runs, by queue, job name and outcome (ok or failed)', ['queue', 'job', 'outcome']);
    this.jobSeconds = seconds('palaver_job_duration_seconds', 'Time to run a job, by queue and job name', ['queue', 'job']);
    this.deliveries = counter('palaver_webhook_deliveries_total', 'Webhook delivery attempts, by outcome (succeeded, failed)', ['outcome']);
    this.deliverySeconds = seconds('palaver_webhook_delivery_duration_seconds', 'Time of a webhook delivery attempt', []);
  }

  request(subject: string, outcome: string, seconds: number): void {
    const [service = subject, , operation = subject] = subject.split('.');
    this.count(this.requests, { service, operation, outcome });
    this.observe(this.requestSeconds, { service, operation }, seconds);
  }

  job(queue: string, job: string, outcome: 'ok' | 'failed', seconds: number): void {
    this.count(this.jobs, { queue, job, outcome });
    this.observe(this.jobSeconds, { queue, job }, seconds);
  }

  delivery(outcome: 'succeeded' | 'failed', seconds: number): void {
    this.count(this.deliveries, { outcome });
    this.observe(this.deliverySeconds, {}, seconds);
  }

  private count(counter: Counter, labels: Labels): void {
    if (this.exemplars) counter.inc({ labels, value: 1, exemplarLabels: traceExemplar() });
    else counter.inc(labels);
  }

  private observe(histogram: Histogram, labels: Labels, seconds: number): void {
    if (this.exemplars) histogram.observe({ labels, value: seconds, exemplarLabels: traceExemplar() });
    else histogram.observe(labels, seconds);
  }
}

/** A registry speaking the given format (prom-client's constructor takes it; its typings do not say so). */
export const registryOf = (contentType: string): Registry =>
  new (Registry as unknown as new (contentType: string) => Registry)(contentType);

const traceExemplar = (): Labels => {
  const span = trace.getActiveSpan()?.spanContext();
  return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
};

let metrics: ServiceMetrics | null = null;

/** The process's one ServiceMetrics, made at first use (after tracing is set up: see startTracing). */
export const serviceMetrics = (): ServiceMetrics => {
  metrics ??= new ServiceMetrics(tracingEnabled());
  return metrics;
};
