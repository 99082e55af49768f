import type { VisitorRating } from './session-state';

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const RATING_KEY = 'palaver.rating.';

/**
 * What the widget keeps in the page's storage: the visitor's last conversation (per key, so a
 * reload finds it) and the rating given to each conversation. Without storage, both last as
 * long as the page.
 */
export class WidgetStorage {
  private readonly conversationKey: string;

  constructor(
    private readonly storage: KeyValueStorage | undefined,
    apiKey: string,
  ) {
    this.conversationKey = `palaver.conversation.${apiKey}`;
  }

  lastConversation(): string | null {
    try {
      return this.storage?.getItem(this.conversationKey) ?? null;
    } catch {
      return null;
    }
  }

  rememberConversation(conversationId: string): void {
    try {
      this.storage?.setItem(this.conversationKey, conversationId);
    } catch {
      // storage unavailable: the conversation lasts as long as the page
    }
  }

  forgetConversation(): void {
    try {
      this.storage?.removeItem(this.conversationKey);
    } catch {
      // nothing stored
    }
  }

  rating(conversationId: string): VisitorRating | null {
    try {
      const raw = this.storage?.getItem(`${RATING_KEY}${conversationId}`);
      const parsed = raw ? (JSON.parse(raw) as VisitorRating) : null;
      return parsed && typeof parsed.score === 'number' ? parsed : null;
    } catch {
      return null;
    }
  }

  keepRating(conversationId: string, rating: VisitorRating): void {
    try {
      this.storage?.setItem(`${RATING_KEY}${conversationId}`, JSON.stringify(rating));
    } catch {
      // no storage: the thanks last as long as the page
    }
  }
}
