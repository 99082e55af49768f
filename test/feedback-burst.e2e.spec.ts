import { describe, expect, it } from 'vitest';
import { http, newConversation, useE2eApp } from './support/e2e-app';

describe('concurrent feedback on one conversation', () => {
  const e2e = useE2eApp();

  it('accepts every submission of a burst of 100, and stores one of the values sent', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'one' }, token });
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'two' }, token });
    const replies = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
    expect(replies).toHaveLength(2);

    const burst = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        http(`${e2e.url}/v2/messages/${replies[i % 2].id}/feedback`, { body: { feedback: i % 3 === 0 ? 'like' : 'dislike' }, token }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(
      statuses.filter((s) => s !== 200),
      JSON.stringify(burst.find((r) => r.status !== 200)?.body),
    ).toEqual([]);
    const stored = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
    for (const message of stored) expect(['like', 'dislike']).toContain(message.feedback);
  }, 60_000);
});
