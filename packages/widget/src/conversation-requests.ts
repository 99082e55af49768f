import type { SessionContext } from './session-context';
import type { VisitorRating } from './session-state';
import type { WidgetStorage } from './widget-storage';

/* What the visitor asks of a conversation besides messages: to close it, to rate it, to be emailed. */

export const closeConversation = async (session: SessionContext, reason: string): Promise<void> => {
  const { conversationId } = session.state;
  if (!conversationId) return;
  try {
    await session.client.closeConversation(conversationId, reason || undefined);
    session.set({ closed: true, notice: null });
  } catch (error) {
    session.report(error);
  }
};

export const leaveContact = async (session: SessionContext, email: string, name?: string): Promise<boolean> => {
  const { conversationId } = session.state;
  if (!conversationId) return false;
  try {
    const contact = await session.client.leaveContact(conversationId, name ? { email, name } : { email });
    session.set({ contact: contact.email, notice: { text: `Thanks! We will email you at ${contact.email}.`, info: true } });
    return true;
  } catch (error) {
    session.report(error);
    return false;
  }
};

/** Rates the conversation (1-5, an optional comment); rating again replaces it. */
export const rateConversation = async (
  session: SessionContext,
  stored: WidgetStorage,
  score: number,
  comment: string,
): Promise<boolean> => {
  const { conversationId } = session.state;
  if (!conversationId) return false;
  const text = comment.trim();
  try {
    const rating = await session.client.rateConversation(conversationId, text ? { score, comment: text } : { score });
    const kept: VisitorRating = { score: rating.score, comment: rating.comment };
    if (session.state.conversationId === conversationId) session.set({ rating: kept });
    stored.keepRating(conversationId, kept);
    return true;
  } catch (error) {
    session.report(error);
    return false;
  }
};
