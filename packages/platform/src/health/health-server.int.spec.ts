import { AppError, defineMessage } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handle } from '../transport/handle';
import { type HealthServer, startHealthServer } from './health-server';

const Echo = defineMessage('echo.cmd.repeat.v1', z.object({ text: z.string() }), z.object({ text: z.string() }));

describe("a process's health server", () => {
  let server: HealthServer;
  beforeAll(async () => {
    server = await startHealthServer('echo', 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('answers /livez and serves the messages this process handled on /metrics, by outcome', async () => {
    expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    await handle(Echo, { text: 'hi' }, async ({ text }) => ({ text }));
    await handle(Echo, { text: 'hi' }, async () => {
      throw new AppError('NOT_FOUND', 'nothing to repeat');
    });
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    expect(text).toContain('palaver_service_requests_total{service="echo",operation="repeat",outcome="ok"} 1');
    expect(text).toContain('palaver_service_requests_total{service="echo",operation="repeat",outcome="NOT_FOUND"} 1');
    expect(text).toMatch(/palaver_service_request_duration_seconds_count\{service="echo",operation="repeat"\} 2/);
  });
});
