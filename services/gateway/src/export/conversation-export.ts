import type { AdminConversation, AdminConversationFilter, Message } from '@palaver/contracts';

/** One page of the filtered conversation list, and one conversation with its messages. */
export interface ConversationSource {
  page(filter: AdminConversationFilter, offset: number, limit: number): Promise<{ data: AdminConversation[]; total: number }>;
  get(conversationId: string): Promise<AdminConversation>;
}

const PAGE_SIZE = 100;

const CSV_COLUMNS = [
  'conversationId',
  'conversationStatus',
  'visitorId',
  'conversationCreatedAt',
  'messageId',
  'messageCreatedAt',
  'role',
  'text',
  'feedback',
  'humanAgent',
] as const;

/** What a spreadsheet may read as the start of a formula (OWASP's list for CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: quote every field that holds a comma, a quote or a line break; double the quotes. A
 * field that a spreadsheet would run as a formula (a visitor's `=HYPERLINK(…)`, an agent so named)
 * gets a leading `'` and quotes, as OWASP recommends, so it opens as text.
 */
export const csvField = (value: string | null | undefined): string => {
  const text = value ?? '';
  if (FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const textOf = (message: Message): string => message.parts.map((part) => part.text).join('');

const csvRows = (conversation: AdminConversation): string[] =>
  (conversation.messages ?? []).map((message) => {
    const agent = typeof message.metadata === 'object' ? message.metadata.humanAgent?.name : null;
    return [
      conversation.id,
      conversation.status,
      conversation.visitorId,
      conversation.createdAt,
      message.id,
      message.createdAt,
      message.role,
      textOf(message),
      message.feedback,
      agent,
    ]
      .map(csvField)
      .join(',');
  });

/**
 * The filtered conversations, oldest interaction last, as text chunks: NDJSON has one
 * conversation (with its messages) per line; CSV one message per row under a header.
 */
export async function* exportConversations(
  source: ConversationSource,
  filter: AdminConversationFilter,
  format: 'ndjson' | 'csv',
): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\r\n`;
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const { data } = await source.page(filter, offset, PAGE_SIZE);
    for (const summary of data) {
      const conversation = await source.get(summary.id);
      if (format === 'ndjson') yield `${JSON.stringify(conversation)}\n`;
      else for (const row of csvRows(conversation)) yield `${row}\r\n`;
    }
    if (data.length < PAGE_SIZE) return;
  }
}
