import { AppError, InboxMessages, PrivacyMessages, type VisitorExport, type VisitorProfile } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';

/** The profile identity holds, or null when it holds none (NOT_FOUND). */
const profileOf = async (services: ServiceClient, projectId: string, visitorId: string): Promise<VisitorProfile | null> => {
  try {
    return await services.send(PrivacyMessages.visitorProfile, { projectId, visitor: { visitorId } });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
};

/** The inbox's team-only data of one conversation; null when it was erased since it was listed. */
const inboxOf = async (
  services: ServiceClient,
  projectId: string,
  conversationId: string,
): Promise<VisitorExport['inbox'][number] | null> => {
  try {
    const [{ userAgent }, { data: notes }] = await Promise.all([
      services.send(InboxMessages.visitorContext, { projectId, conversationId }),
      services.send(InboxMessages.listNotes, { projectId, conversationId }),
    ]);
    return { conversationId, userAgent, notes };
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONVERSATION_NOT_FOUND') return null;
    throw err;
  }
};

/**
 * A visitor's data from the two services that hold it: the profile (identity), the conversations
 * with their messages, and what the inbox holds about them (conversation). NOT_FOUND when neither
 * knows the visitor.
 */
export const exportVisitor = async (services: ServiceClient, projectId: string, visitorId: string, now: Date): Promise<VisitorExport> => {
  const [visitor, { data: conversations }] = await Promise.all([
    profileOf(services, projectId, visitorId),
    services.send(PrivacyMessages.visitorConversations, { projectId, visitorId }),
  ]);
  if (!visitor && conversations.length === 0) throw new AppError('NOT_FOUND', 'Visitor not found', { visitorId });
  const inbox = await Promise.all(conversations.map((conversation) => inboxOf(services, projectId, conversation.id)));
  return {
    object: 'visitor_export',
    projectId,
    exportedAt: now.toISOString(),
    visitor,
    conversations,
    inbox: inbox.filter((entry) => entry !== null),
  };
};
