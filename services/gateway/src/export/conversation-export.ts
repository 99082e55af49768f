import {
  type AdminConversation,
  type AdminConversationFilter,
  ConversationAdminMessages,
  type ExportCursor,
  type Message,
} from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';

/** One page of the filtered conversations after a cursor (`next`: null at the end), and one conversation with its messages. */
export interface ConversationSource {
  page(
    filter: AdminConversationFilter,
    after: ExportCursor | null,
    limit: number,
  ): Promise<{ data: AdminConversation[]; next: ExportCursor | null }>;
  get(conversationId: string): Promise<AdminConversation>;
}

/** The conversation service's pages and conversations of one project. */
export const busConversationSource = (services: ServiceClient, projectId: string): ConversationSource => ({
  page: (filter, after, limit) => services.send(ConversationAdminMessages.exportPage, { projectId, filter, after, limit }),
  get: (conversationId) => services.send(ConversationAdminMessages.get, { projectId, conversationId }),
});

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
 * The filtered conversations, oldest created first, as text chunks: NDJSON has one conversation
 * (with its messages) per line; CSV one message per row under a header. Pages follow a cursor on
 * the creation order, which writes do not change: an export read slowly while conversations get
 * messages has each of them once (an offset over the latest interaction would skip some and
 * repeat others).
 */
export async function* exportConversations(
  source: ConversationSource,
  filter: AdminConversationFilter,
  format: 'ndjson' | 'csv',
): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\r\n`;
  let after: ExportCursor | null = null;
  do {
    const page: { data: AdminConversation[]; next: ExportCursor | null } = await source.page(filter, after, PAGE_SIZE);
    for (const summary of page.data) {
      const conversation = await source.get(summary.id);
      if (format === 'ndjson') yield `${JSON.stringify(conversation)}\n`;
      else for (const row of csvRows(conversation)) yield `${row}\r\n`;
    }
    after = page.next;
  } while (after !== null);
}
