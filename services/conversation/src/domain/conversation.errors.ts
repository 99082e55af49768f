import { AppError } from '@palaver/contracts';

export const conversationNotFound = (conversationId: string): AppError =>
  new AppError('CONVERSATION_NOT_FOUND', 'Conversation not found', { conversationId });

export const conversationForbidden = (): AppError => new AppError('FORBIDDEN', 'You do not have access to this conversation');

export const messageNotFound = (messageId: string): AppError => new AppError('MESSAGE_NOT_FOUND', 'Message not found', { messageId });

export const messageForbidden = (): AppError => new AppError('FORBIDDEN', 'You do not have access to this message');

export const conflict = (message: string, details: { resource: string; conflictingField: string } & Record<string, unknown>): AppError =>
  new AppError('CONFLICT', message, details);
