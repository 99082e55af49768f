import { beforeAll, describe, expect, it } from 'vitest';
import { DONT_KNOW_ANSWER } from '../packages/platform/src/chat-model/grounded-answer';
import { BIKE_SHOP_CASES, BIKE_SHOP_DOCUMENTS } from './support/bike-shop.content';
import { http, newConversation, useE2eApp, useProject } from './support/e2e-app';

/**
 * The built-in responder over a website imported as plain text (headings and FAQ questions on
 * lines of their own), asked through the visitor API: the answer is the sentence that answers,
 * the page is cited once (in the message's sources), and what the pages do not cover is declined.
 */
describe('the local responder answers from imported web pages', () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e);
  beforeAll(async () => {
    for (const page of BIKE_SHOP_DOCUMENTS) await e2e.admin.call('POST', `/projects/${keys.project.id}/documents`, page);
  });

  const ask = async (question: string) => {
    const { token, conversationId } = await newConversation(e2e.url, keys.publishableKey);
    const reply = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: question }, token });
    expect(reply.status, reply.text).toBeLessThan(300);
    const stored = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data[0];
    return { text: reply.body.steps[0].content[0].text as string, sources: stored.metadata.sources as Array<{ title: string }> };
  };

  for (const { question, from } of BIKE_SHOP_CASES) {
    if (from === null) {
      it(`declines "${question}"`, async () => {
        const { text, sources } = await ask(question);
        expect(text).toBe(DONT_KNOW_ANSWER);
        expect(sources).toEqual([]);
      });
      continue;
    }
    it(`answers "${question}" with the sentence that answers, citing "${from.document}" once`, async () => {
      const { text, sources } = await ask(question);
      expect(text).toContain(from.says);
      expect(text).not.toContain('?');
      for (const heading of ['Delivery and click-and-collect', 'Refurbished bikes\n', 'Returns\n']) expect(text).not.toContain(heading);
      expect(text).not.toMatch(/Source|bikes\.example/);
      expect(sources.map((s) => s.title)).toEqual([from.document]);
    });
  }
});
