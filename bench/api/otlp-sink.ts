import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * A local OTLP/HTTP trace receiver for `bench:api --tracing` (http/protobuf, the exporter's
 * default): answers every POST /v1/traces with 200 and counts what came (spans, bytes on the
 * wire), so the product pays a real export.
 */
export type OtlpSink = Awaited<ReturnType<typeof startOtlpSink>>;

export const startOtlpSink = async () => {
  const counts = { requests: 0, spans: 0, bytes: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') return response.writeHead(404).end();
      const wire = Buffer.concat(chunks);
      counts.requests += 1;
      counts.bytes += wire.length;
      counts.spans += protobufSpans(request.headers['content-encoding'] === 'gzip' ? gunzipSync(wire) : wire);
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    /** What the product traced into the sink runs with. */
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    },
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The length-delimited fields of a protobuf message between `start` and `end`: [field number, start, end]. */
function* fields(buf: Buffer, start: number, end: number): Generator<[number, number, number]> {
  let i = start;
  const varint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = buf[i++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (i < end) {
    const key = varint();
    const wire = key % 8;
    if (wire === 2) {
      const length = varint();
      yield [Math.floor(key / 8), i, i + length];
      i += length;
    } else if (wire === 0) varint();
    else i += wire === 1 ? 8 : 4;
  }
}

/** ExportTraceServiceRequest: resource_spans (1) hold scope_spans (2), which hold spans (2). */
const protobufSpans = (body: Buffer): number => {
  let spans = 0;
  for (const [f1, s1, e1] of fields(body, 0, body.length))
    if (f1 === 1)
      for (const [f2, s2, e2] of fields(body, s1, e1)) if (f2 === 2) for (const [f3] of fields(body, s2, e2)) spans += f3 === 2 ? 1 : 0;
  return spans;
};
