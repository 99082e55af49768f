import type { Feedback } from '@palaver/contracts';
import type { WidgetMessage } from './session-state';

/**
 * Feedback the visitor gave, by message id, until the server shows it: a snapshot taken before
 * (a live event of the reply, a poll in flight) must not take it back on screen.
 */
export class OwnFeedback {
  private readonly given = new Map<string, Feedback | null>();

  give(messageId: string, value: Feedback | null): void {
    this.given.set(messageId, value);
  }

  /** The server refused it: what it shows stands. */
  withdraw(messageId: string): void {
    this.given.delete(messageId);
  }

  /** The server's message, with the visitor's own feedback kept until the server shows it too. */
  over(message: WidgetMessage): WidgetMessage {
    if (!message.id || !this.given.has(message.id)) return message;
    const own = this.given.get(message.id) as Feedback | null;
    if (message.feedback === own) this.given.delete(message.id);
    return { ...message, feedback: own };
  }
}
