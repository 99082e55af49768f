import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { http, newConversation, useE2eApp } from './support/e2e-app';
import { GatedChatModel } from './support/gated-chat-model';

/** A raw TCP client: what it received, and when the server closed the connection. */
const rawClient = (url: string) => {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (data) => {
    received += data.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => {
    const start = Date.now();
    socket.on('close', () => resolve(Date.now() - start));
  });
  return { socket, closed, received: () => received };
};

describe('connection timeouts', () => {
  const gate = new GatedChatModel();
  const e2e = useE2eApp({ HTTP_IDLE_TIMEOUT_MS: '800', HTTP_REQUEST_TIMEOUT_MS: '1000' }, { chatModel: gate });

  /** Resolves once the server has closed a connection opened now that sends nothing: the idle timeout has passed since. */
  const idleTimeoutPassed = async () => {
    const probe = rawClient(e2e.url);
    await probe.closed;
    probe.socket.destroy();
  };

  it('closes a connection that sends nothing', async () => {
    const client = rawClient(e2e.url);
    await client.closed;
    client.socket.destroy();
  });

  it('answers 408 in the envelope to a body trickled byte by byte, and closes', async () => {
    const client = rawClient(e2e.url);
    const { host } = new URL(e2e.url);
    client.socket.write(
      `POST /v2/identity/init HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`,
    );
    const trickle = setInterval(() => client.socket.writable && client.socket.write(' '), 300);
    await client.closed;
    clearInterval(trickle);
    client.socket.destroy();
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
    const body = JSON.parse(client.received().split('\r\n\r\n')[1]!);
    expect(body.error.code).toBe('REQUEST_TIMEOUT');
  });

  it('keeps a streamed reply open while the model is silent longer than the idle timeout', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    const streamed = http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'hi', stream: true }, token });
    await gate.started();
    await idleTimeoutPassed();
    gate.release('late but whole');
    const result = await streamed;
    expect(result.status).toBe(200);
    expect(result.text).toContain('late but whole');
    expect(result.text).toContain('[DONE]');
  });

  it('keeps a JSON reply waiting for a model slower than the idle timeout (the request is in flight)', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    const answered = http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'slow one' }, token });
    await gate.started();
    await idleTimeoutPassed();
    gate.release('slow but whole');
    const result = await answered;
    expect(result.status).toBe(200);
    expect(result.body.steps[0].content[0].text).toBe('slow but whole');
  });

  it('answers a request injected without a connection (app.inject), which has no timeout to lift', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const injected = await e2e.app.gateway.inject({
      method: 'POST',
      url: '/v2/identity/init',
      headers: { 'content-type': 'application/json' },
      payload: { apiKey: publishableKey, saVid: 'injected-device' },
    });
    expect(injected.statusCode).toBe(201);
    expect(injected.json().sessionToken).toEqual(expect.any(String));
  });
});

describe('idle connections (HTTP_IDLE_TIMEOUT_MS longer than HTTP_REQUEST_TIMEOUT_MS, as by default)', () => {
  const REQUEST_MS = 1_000;
  const IDLE_MS = 2_500;
  /** Node checks request deadlines on an interval (a quarter of the request timeout here) and timers fire late under load. */
  const SLACK_MS = 1_500;
  const e2e = useE2eApp({ HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) });

  it('answers 408 and closes a new connection that sends nothing, at the request timeout', async () => {
    const client = rawClient(e2e.url);
    const closedAfter = await client.closed;
    client.socket.destroy();
    expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_MS - 50);
    expect(closedAfter).toBeLessThan(REQUEST_MS + SLACK_MS);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  /** A connection that asked once and then kept silent, closed by the server: how long it stayed idle, and what it received. */
  const idleAfterOneRequest = async () => {
    const client = rawClient(e2e.url);
    const { host } = new URL(e2e.url);
    client.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await vi.waitFor(() => expect(client.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\n\{.*\}$/));
    const answered = Date.now();
    await client.closed;
    client.socket.destroy();
    return { idleFor: Date.now() - answered, received: client.received() };
  };

  it('keeps a connection between requests for the idle timeout, then closes it without an answer', async () => {
    const { idleFor, received } = await idleAfterOneRequest();
    // Past the request timeout (it is not a request arriving) and about the idle timeout, quietly.
    expect(idleFor).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(idleFor).toBeLessThan(IDLE_MS + SLACK_MS * 2);
    expect(received.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('keeps the connection of an event stream open past both, while it streams', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    const controller = new AbortController();
    const response = await fetch(`${e2e.url}/v2/conversations/${conversationId}/events`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const ended = reader.read().then(function more(chunk): Promise<'ended'> | 'ended' {
      return chunk.done ? 'ended' : reader.read().then(more);
    });
    // A connection opened after the stream, idle once answered, is closed: the stream has outlived both timeouts.
    await idleAfterOneRequest();
    // The stream's own timeouts would have fired before that connection's; a round trip after lets such a close arrive.
    const stillOpen = http(`${e2e.url}/healthz`).then(() => 'still open' as const);
    expect(await Promise.race([ended, stillOpen])).toBe('still open');
    controller.abort();
    await ended.catch(() => {});
  });
});
