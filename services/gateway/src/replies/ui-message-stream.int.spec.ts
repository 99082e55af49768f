import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pipeUiMessageStream } from './ui-message-stream';

/** A server answering every request with `chunks()` through pipeUiMessageStream. */
const serve = async (chunks: () => AsyncIterable<UIMessageChunk>): Promise<{ server: Server; url: string }> => {
  const server = createServer((_req, res) => pipeUiMessageStream(res, chunks(), { 'x-extra': 'yes', 'cache-control': 'no-store' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
};

const deltas = async function* (count: number, size: number, pulled: { n: number; ended: boolean }) {
  try {
    yield { type: 'start' } as const;
    for (let i = 0; i < count; i++) {
      pulled.n = i + 1;
      yield { type: 'text-delta', id: 't', delta: `${i}:`.padEnd(size, 'x') } as const;
    }
    yield { type: 'finish' } as const;
  } finally {
    pulled.ended = true;
  }
};

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

describe('pipeUiMessageStream', () => {
  it('writes the AI SDK stream headers (ours win), one data event per chunk, then [DONE]', async () => {
    const served = await serve(async function* () {
      yield { type: 'start' };
      yield { type: 'text-delta', id: 't', delta: 'Hi' };
      yield { type: 'finish' };
    });
    server = served.server;
    const response = await fetch(served.url);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(await response.text()).toBe(
      'data: {"type":"start"}\n\ndata: {"type":"text-delta","id":"t","delta":"Hi"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n',
    );
  });

  it('waits for a slow reader instead of pulling the whole reply into memory, and delivers it all', async () => {
    const pulled = { n: 0, ended: false };
    const served = await serve(() => deltas(400, 64 * 1024, pulled));
    server = served.server;
    let pulledWhilePaused = 0;
    const body = await new Promise<string>((resolve, reject) => {
      request(served.url, (res) => {
        res.pause();
        // Not read for a while: the socket's buffers fill, and writing must stop.
        setTimeout(() => {
          pulledWhilePaused = pulled.n;
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => resolve(Buffer.concat(parts).toString()));
          res.resume();
        }, 300);
      })
        .on('error', reject)
        .end();
    });
    expect(pulledWhilePaused).toBeGreaterThan(0);
    expect(pulledWhilePaused).toBeLessThan(400);
    const events = body.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(1 + 400 + 1 + 1);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events[400]!.slice('data: '.length)).delta.startsWith('399:')).toBe(true);
  });

  it('stops the reply when the client goes away', async () => {
    const pulled = { n: 0, ended: false };
    const served = await serve(() => deltas(100_000, 64 * 1024, pulled));
    server = served.server;
    const controller = new AbortController();
    const response = await fetch(served.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await vi.waitFor(() => expect(pulled.ended).toBe(true), { timeout: 5_000 });
    expect(pulled.n).toBeLessThan(100_000);
  });
});
