import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ListConversationsQuery, ListMessagesQuery } from './v2/conversation';
import { PostMessageBody } from './v2/message';
import { ListQnasQuery } from './v2/qna';
import { SearchQuery } from './v2/search';
import { InitIdentityBody } from './v2/visitor';

const accepts = (schema: z.ZodType, input: unknown) =>
  expect(schema.safeParse(input).success, JSON.stringify(input).slice(0, 80)).toBe(true);
const rejects = (schema: z.ZodType, input: unknown) =>
  expect(schema.safeParse(input).success, JSON.stringify(input).slice(0, 80)).toBe(false);
const chars = (n: number) => 'x'.repeat(n);

/** Every row of the spec's Limits table, on both sides of each bound. Query values arrive as strings. */
describe("the spec's Limits table", () => {
  it('apiKey (init): at least 1 char', () => {
    rejects(InitIdentityBody, { apiKey: '', saVid: 'd' });
    accepts(InitIdentityBody, { apiKey: 'k', saVid: 'd' });
  });

  it('saVid: 1 to 100 chars', () => {
    rejects(InitIdentityBody, { apiKey: 'k', saVid: '' });
    accepts(InitIdentityBody, { apiKey: 'k', saVid: chars(1) });
    accepts(InitIdentityBody, { apiKey: 'k', saVid: chars(100) });
    rejects(InitIdentityBody, { apiKey: 'k', saVid: chars(101) });
  });

  it('search q: 1 to 500 chars; size: 1 to 50, default 10', () => {
    rejects(SearchQuery, { apiKey: 'k', q: '' });
    accepts(SearchQuery, { apiKey: 'k', q: chars(1) });
    accepts(SearchQuery, { apiKey: 'k', q: chars(500) });
    rejects(SearchQuery, { apiKey: 'k', q: chars(501) });
    expect(SearchQuery.parse({ apiKey: 'k', q: 'x' }).size).toBe(10);
    rejects(SearchQuery, { apiKey: 'k', q: 'x', size: '0' });
    expect(SearchQuery.parse({ apiKey: 'k', q: 'x', size: '1' }).size).toBe(1);
    expect(SearchQuery.parse({ apiKey: 'k', q: 'x', size: '50' }).size).toBe(50);
    rejects(SearchQuery, { apiKey: 'k', q: 'x', size: '51' });
    rejects(SearchQuery, { apiKey: 'k', q: 'x', size: '2.5' });
  });

  it('Q&A query: at most 300 chars', () => {
    accepts(ListQnasQuery, { query: chars(300) });
    rejects(ListQnasQuery, { query: chars(301) });
  });

  it.each([
    ['Q&A', ListQnasQuery, 100, 10],
    ['conversations', ListConversationsQuery, 100, 10],
    ['messages (all when omitted)', ListMessagesQuery, 1000, undefined],
  ] as const)('%s limit: 1 to %i, by default %s', (_list, schema, max, byDefault) => {
    expect(schema.parse({}).limit).toBe(byDefault);
    rejects(schema, { limit: '0' });
    accepts(schema, { limit: '1' });
    accepts(schema, { limit: String(max) });
    rejects(schema, { limit: String(max + 1) });
  });

  it('offsets: default 0, at least 0, null means the default', () => {
    for (const schema of [ListConversationsQuery, ListMessagesQuery, ListQnasQuery]) {
      expect(schema.parse({}).offset).toBe(0);
      expect(schema.parse({ offset: null }).offset).toBe(0);
      expect(schema.parse({ offset: 'null' }).offset).toBe(0);
      expect(schema.parse({ offset: '0' }).offset).toBe(0);
      rejects(schema, { offset: '-1' });
    }
  });

  it('message content: 1 to 10000 chars; stream defaults to false', () => {
    rejects(PostMessageBody, { content: '' });
    accepts(PostMessageBody, { content: chars(1) });
    accepts(PostMessageBody, { content: chars(10_000) });
    rejects(PostMessageBody, { content: chars(10_001) });
    expect(PostMessageBody.parse({ content: 'x' }).stream).toBe(false);
  });
});
