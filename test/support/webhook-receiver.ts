import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  /** The raw body, as a receiver verifies it. */
  body: string;
  /** What the receiver answered (null: it held the request open). */
  status: number | null;
}

/** Answers one request: a status, or `hang` (the request is held open until the receiver closes). */
export type HookAnswer = number | 'hang';

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Requests so far carrying this `webhook-id`. */
  hitsOf(webhookId: string): ReceivedHook[];
  answer: (hook: ReceivedHook, hitOfThisId: number) => HookAnswer;
  close(): Promise<void>;
}

/** A local HTTP endpoint that records every webhook delivery and answers as the test tells it. */
export const startWebhookReceiver = async (answer: WebhookReceiver['answer'] = () => 200): Promise<WebhookReceiver> => {
  const held = new Set<ServerResponse>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    hitsOf: (id) => receiver.received.filter((hook) => hook.headers['webhook-id'] === id),
    answer,
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const hook: ReceivedHook = { headers: request.headers, body: Buffer.concat(parts).toString('utf8'), status: null };
      receiver.received.push(hook);
      const decided = receiver.answer(hook, receiver.hitsOf(String(request.headers['webhook-id'])).length);
      if (decided === 'hang') {
        held.add(response);
        return;
      }
      hook.status = decided;
      response.writeHead(decided, { 'content-type': 'text/plain' }).end(decided < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
};
