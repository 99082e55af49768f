import { Inject, Injectable } from '@nestjs/common';
import { type AgentNote, AppError, type InboxMessages } from '@palaver/contracts';
import type { z } from 'zod';
import { conversationNotFound } from '../domain/conversation.errors';
import { conversationIdOf, type StoredConversationEvent } from '../domain/conversation.stream';
import { ConversationRepository } from '../repositories/conversation.repository';
import { ConversationExecutor } from './conversation.executor';

type Req<K extends keyof typeof InboxMessages> = z.output<(typeof InboxMessages)[K]['request']>;

const toNote = (event: StoredConversationEvent & { type: 'AgentNoteAdded' }): AgentNote => ({
  id: event.data.noteId,
  conversationId: conversationIdOf(event.streamId),
  author: event.data.agent,
  content: event.data.content,
  createdAt: event.occurredAt,
});

const isNote = (event: StoredConversationEvent): event is StoredConversationEvent & { type: 'AgentNoteAdded' } =>
  event.type === 'AgentNoteAdded';

/**
 * Internal notes: events of the conversation's own stream, read back from it (opened with the
 * conversation's key), so they have no read model of their own and go with the conversation's
 * erasure. No projection a visitor reads shows them.
 */
@Injectable()
export class AgentNoteService {
  constructor(
    @Inject(ConversationExecutor) private readonly executor: ConversationExecutor,
    @Inject(ConversationRepository) private readonly repository: ConversationRepository,
  ) {}

  async add(req: Req<'addNote'>): Promise<AgentNote> {
    const { events } = await this.executor.execute({ type: 'AddNote', ...req });
    const added = events.find((event) => isNote(event) && event.data.noteId === req.noteId);
    if (!added || !isNote(added)) throw new Error(`note ${req.noteId} was not recorded`);
    return toNote(added);
  }

  async list(req: Req<'listNotes'>): Promise<{ data: AgentNote[] }> {
    return { data: (await this.events(req.projectId, req.conversationId)).filter(isNote).map(toNote) };
  }

  /** One note of the conversation (the agents' feed presents `note.added` with it); null once erased. */
  async get(projectId: string, conversationId: string, noteId: string): Promise<AgentNote | null> {
    try {
      const note = (await this.events(projectId, conversationId)).find((event) => isNote(event) && event.data.noteId === noteId);
      return note && isNote(note) ? toNote(note) : null;
    } catch (err) {
      if (err instanceof AppError && err.code === 'CONVERSATION_NOT_FOUND') return null;
      throw err;
    }
  }

  /** The conversation's events, opened; CONVERSATION_NOT_FOUND for another project's, an unknown or an erased one. */
  private async events(projectId: string, conversationId: string): Promise<readonly StoredConversationEvent[]> {
    const { state, events } = await this.repository.load(conversationId);
    if (state.status === 'none' || state.projectId !== projectId || state.erased) throw conversationNotFound(conversationId);
    return events;
  }
}
