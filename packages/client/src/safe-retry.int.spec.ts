import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, startE2eApp } from '../../../test/support/e2e-app';
import { PalaverClient } from './client';
import { PalaverNetworkError } from './errors';

describe('PalaverClient sends with an Idempotency-Key and retries safely', () => {
  let e2e: E2eApp;
  let apiKey: string;
  beforeAll(async () => {
    e2e = await startE2eApp();
    apiKey = (await e2e.admin.createProject({ name: 'Retry shop' })).publishableKey;
  });
  afterAll(() => e2e.stop());

  /** A fetch that loses the answer of the first `lost` POSTs to a path ending so, after the server handled them. */
  const losingFetch = (suffix: string, lost: number) => {
    const keys: string[] = [];
    let remaining = lost;
    const wrapped: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST' && String(input).endsWith(suffix)) {
        keys.push(new Headers(init.headers).get('idempotency-key') ?? '');
        if (remaining > 0) {
          remaining -= 1;
          await response.text();
          throw new TypeError('fetch failed: the connection was reset');
        }
      }
      return response;
    };
    return { fetch: wrapped, keys };
  };

  it('retries a send whose answer was lost with the same key: one message, the first reply', async () => {
    const lossy = losingFetch('/messages', 2);
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'retry-device-1', fetch: lossy.fetch });
    const { id } = await client.createConversation();
    const reply = await client.sendMessage(id, { content: 'Is this sent once?' });
    expect(reply.type).toBe('reply');
    expect(lossy.keys).toHaveLength(3);
    expect(new Set(lossy.keys).size).toBe(1);
    expect(lossy.keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    const messages = await client.listMessages(id);
    expect(messages.data.map((m) => m.role)).toEqual(['user', 'assistant']);

    // Another logical send has another key.
    await client.sendMessage(id, { content: 'And this one?' });
    expect(new Set(lossy.keys).size).toBe(2);
  });

  it('gives up after its retries with the network error', async () => {
    const lossy = losingFetch('/conversations', 10);
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'retry-device-2', fetch: lossy.fetch, retries: 1 });
    await expect(client.createConversation()).rejects.toBeInstanceOf(PalaverNetworkError);
    expect(lossy.keys).toHaveLength(2);
    // Both tries reached the server, which made the conversation once.
    expect((await client.listConversations()).data).toHaveLength(1);
  });
});
